import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useCourseChoices } from '../../classroom/api/courses-api';

export interface CourseSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable'
> {
  value: string | null;
  onChange(courseId: string | null): void;
  /** The label of the current value when it is known already (e.g. an assignment's label). */
  valueLabel?: string;
}

/** A searchable course picker backed by GET /api/courses?search= (debounced). */
export function CourseSelect({ value, onChange, valueLabel, ...props }: CourseSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const current =
    picked?.value === value ? picked : value && valueLabel ? { value, label: valueLabel } : null;
  const query = current && debounced === current.label ? '' : debounced.trim();
  const courses = useCourseChoices(query);
  const options = (courses.data?.items ?? []).map((c) => ({
    value: c.id,
    label: `${c.code} · ${c.title}`,
  }));
  if (current && !options.some((o) => o.value === current.value)) options.unshift(current);
  return (
    <Select
      {...props}
      searchable
      data={options}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={courses.isFetching ? 'Searching…' : 'No courses found'}
      onChange={(id, option) => {
        setPicked(option ? { value: option.value, label: option.label } : null);
        onChange(id);
      }}
    />
  );
}
