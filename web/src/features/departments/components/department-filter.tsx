import { Select } from '@mantine/core';
import { useDepartmentChoices } from '../api/departments-api';

/**
 * The "Department" filter of a list (the library, the catalogue, the admin's users): the
 * departments the user may see, searchable, cleared for "Any department". It asks for them only
 * while `enabled` (GET /api/departments needs department.view somewhere).
 */
export function DepartmentFilter({
  value,
  onChange,
  enabled = true,
}: {
  value: string | null;
  onChange(value: string | null): void;
  enabled?: boolean;
}) {
  const departments = useDepartmentChoices(enabled);
  return (
    <Select
      label="Department"
      placeholder="Any department"
      clearable
      searchable
      data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      value={value}
      onChange={onChange}
    />
  );
}
