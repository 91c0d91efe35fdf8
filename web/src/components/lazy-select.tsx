/**
 * Mantine's Select, loaded when first shown: with its dropdown, positioning and scrolling it
 * weighs more than the rest of the sign-in page, which shows a choice only when the server
 * offers more than one method or provider (docs/front-end.md). Until it is there, a disabled
 * field with the same label and value holds its place.
 */
import { TextInput, type SelectProps } from '@mantine/core';
import { lazy, Suspense } from 'react';

const Select = lazy(() => import('./lazy-select-impl'));

function labelOf(props: SelectProps): string {
  const data = (props.data ?? []) as ReadonlyArray<string | { value: string; label: string }>;
  for (const item of data) {
    if (typeof item === 'string') {
      if (item === props.value) return item;
    } else if (item && 'value' in item && item.value === props.value) {
      return item.label;
    }
  }
  return '';
}

export function LazySelect(props: SelectProps) {
  return (
    <Suspense fallback={<TextInput label={props.label} value={labelOf(props)} disabled readOnly />}>
      <Select {...props} />
    </Suspense>
  );
}
