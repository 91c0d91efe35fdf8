/** The module components/lazy-select.tsx loads: Mantine's Select and what it needs. */
import { Select, type SelectProps } from '@mantine/core';

export default function LazySelectImpl(props: SelectProps) {
  return <Select {...props} />;
}
