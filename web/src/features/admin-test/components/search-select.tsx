import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

export interface SearchSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable'
> {
  value: string | null;
  onChange(value: string | null): void;
  /** The options the server found for the last query. */
  options: { value: string; label: string }[];
  loading: boolean;
  /** Called (debounced) with the text to search for. */
  onQueryChange(query: string): void;
  nothingFound: string;
}

/** A select whose options come from a server search; the picked option stays listed. */
export function SearchSelect({
  value,
  onChange,
  options,
  loading,
  onQueryChange,
  nothingFound,
  ...props
}: SearchSelectProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const current = picked?.value === value ? picked : null;
  const emit = useDebouncedCallback((text: string) => onQueryChange(text), 250);
  const data =
    current && !options.some((o) => o.value === current.value) ? [current, ...options] : options;
  return (
    <Select
      {...props}
      searchable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        // Picking an option puts its label in the input: that is not a search.
        emit(data.some((o) => o.label === text) ? '' : text.trim());
      }}
      filter={({ options: all }) => all}
      nothingFoundMessage={loading ? 'Searching…' : nothingFound}
      onChange={(next, option) => {
        setPicked(option ? { value: option.value, label: option.label } : null);
        onChange(next);
      }}
    />
  );
}
