/**
 * Choosing who an announcement is for, as an administrator: everyone, or any mix of roles,
 * departments, courses and chosen people. Each choice list is its area's own query (the roles',
 * the departments', the course picker's, the admin's users), never a fetch of its own.
 */
import type { AdminUser } from '@learning-hub/core';
import { Button, Checkbox, CloseButton, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { PersonPicker } from '../../../components/person-picker';
import { displayName } from '../../../lib/format';
import { useRoles } from '../../admin/api/roles-api';
import { useUserList } from '../../admin/api/users-api';
import { useCourseChoices } from '../../classroom/api/courses-api';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { roleAudienceLabel } from '../announcement-format';

/** A person chosen, with what the list shows of them. */
export interface ChosenPerson {
  id: string;
  name: string;
  username: string;
}

export interface AudienceValue {
  everyone: boolean;
  roles: string[];
  departmentIds: string[];
  /** Course id → its title (kept for the chips while the picker searches). */
  courses: { id: string; name: string }[];
  people: ChosenPerson[];
}

export function AudienceFields({
  value,
  onChange,
  error,
}: {
  value: AudienceValue;
  onChange(next: AudienceValue): void;
  error?: string | undefined;
}) {
  const set = (patch: Partial<AudienceValue>) => onChange({ ...value, ...patch });
  const roles = useRoles();
  const departments = useDepartmentChoices();
  const [courseSearch, setCourseSearch] = useState('');
  const [debouncedCourse] = useDebouncedValue(courseSearch, 250);
  const courses = useCourseChoices(debouncedCourse);
  const courseData = [
    ...value.courses.map((c) => ({ value: c.id, label: c.name })),
    ...(courses.data?.items ?? [])
      .filter((c) => !value.courses.some((chosen) => chosen.id === c.id))
      .map((c) => ({ value: c.id, label: `${c.code} · ${c.title}` })),
  ];
  return (
    <Stack gap="sm" role="group" aria-labelledby="audience-label">
      <Text fw={500} size="sm" id="audience-label">
        Who it is for
      </Text>
      <Checkbox
        label="Everyone"
        description="Every active account."
        checked={value.everyone}
        onChange={(event) => set({ everyone: event.currentTarget.checked })}
      />
      {!value.everyone && (
        <>
          <MultiSelect
            label="Roles"
            placeholder={value.roles.length ? undefined : 'Any role'}
            data={(roles.data ?? []).map((role) => ({
              value: role.id,
              label:
                roleAudienceLabel(role.id) === role.id
                  ? role.displayName
                  : roleAudienceLabel(role.id),
            }))}
            value={value.roles}
            onChange={(next) => set({ roles: next })}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Departments"
            placeholder={value.departmentIds.length ? undefined : 'Search departments'}
            data={(departments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
            value={value.departmentIds}
            onChange={(next) => set({ departmentIds: next })}
            searchable
            clearable
            nothingFoundMessage="No department by that name"
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label="Courses"
            placeholder={value.courses.length ? undefined : 'Search courses'}
            data={courseData}
            value={value.courses.map((c) => c.id)}
            onChange={(ids) =>
              set({
                courses: ids.map((id) => ({
                  id,
                  name: courseData.find((c) => c.value === id)?.label ?? id,
                })),
              })
            }
            searchable
            searchValue={courseSearch}
            onSearchChange={setCourseSearch}
            filter={({ options }) => options}
            clearable
            nothingFoundMessage="No course found"
            comboboxProps={{ withinPortal: true }}
          />
          <PeopleField people={value.people} onChange={(people) => set({ people })} />
        </>
      )}
      {error && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** Chosen people: the list, each removable, and Add a person (the admin's user search). */
function PeopleField({
  people,
  onChange,
}: {
  people: ChosenPerson[];
  onChange(people: ChosenPerson[]): void;
}) {
  const [adding, setAdding] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const found = useUserList(
    { search: debounced, page: 1, pageSize: 8 },
    adding && debounced.length >= 2,
  );
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        People
      </Text>
      {people.length > 0 && (
        <Stack
          component="ul"
          gap={2}
          aria-label="People chosen"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {people.map((person) => (
            <Group component="li" key={person.id} gap="xs" wrap="nowrap">
              <Text size="sm">
                {person.name}{' '}
                <Text span size="sm" c="dimmed">
                  {person.username}
                </Text>
              </Text>
              <CloseButton
                size="sm"
                aria-label={`Remove ${person.name}`}
                onClick={() => onChange(people.filter((p) => p.id !== person.id))}
              />
            </Group>
          ))}
        </Stack>
      )}
      {adding ? (
        <PersonPicker<AdminUser>
          search={search}
          onSearch={setSearch}
          chosen={null}
          onChoose={(person) => {
            if (person && !people.some((p) => p.id === person.id)) {
              onChange([
                ...people,
                { id: person.id, name: displayName(person), username: person.username },
              ]);
            }
            setSearch('');
            setAdding(false);
          }}
          results={{
            searching: found.isFetching,
            error: found.error,
            people: debounced.length >= 2 ? found.data?.items.filter((u) => u.isActive) : undefined,
          }}
          nameOf={displayName}
          nobody="Nobody active found by that name."
        />
      ) : (
        <Group>
          <Button variant="light" size="compact-sm" onClick={() => setAdding(true)}>
            Add a person
          </Button>
        </Group>
      )}
    </Stack>
  );
}
