import { findRoute } from '@learning-hub/core';
import {
  Button,
  Group,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { CourseCard } from '../../../components/course-card';
import { Pager } from '../../../components/pager';
import { useCan } from '../../../lib/auth/use-can';
import { CATALOGUE_PAGE_SIZE, useCatalogue } from '../api/courses-api';
import { DepartmentFilter } from '../../departments/components/department-filter';
import { useFilterParams, useTypedFilter } from '../../../lib/use-filter-params';

import { QueryState } from '../../../components/query-state';

const STATES = [
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'archived', label: 'Archived' },
  { value: 'any', label: 'Any state' },
] as const;
type StateFilter = (typeof STATES)[number]['value'];

const CREATE_ROUTE = findRoute('/course/create');

/** /classroom: the catalogue with server-side search, filters and paging; create a course. */
export function CataloguePage() {
  const can = useCan();
  const filters = useFilterParams();
  const search = filters.get('q') ?? '';
  const departmentId = filters.get('department');
  const scope = filters.get('scope') === 'mine' ? 'mine' : 'all';
  const mayEdit = can.permission('course.edit', { scope: 'any' });
  const stateParam = filters.get('state');
  const state: StateFilter =
    mayEdit && STATES.some((s) => s.value === stateParam)
      ? (stateParam as StateFilter)
      : 'published';
  const page = filters.page;
  const typedSearch = useTypedFilter(filters, 'q');
  const scopeLabelId = useId();

  const mayCreate = CREATE_ROUTE ? can.route(CREATE_ROUTE).allowed : false;
  // GET /api/departments needs department.view somewhere; without it there is nothing to pick.
  const showDepartments = can.permission('department.view', { scope: 'any' });
  const catalogue = useCatalogue({
    search: search || undefined,
    departmentId: departmentId ?? undefined,
    scope,
    state,
    page,
    pageSize: CATALOGUE_PAGE_SIZE,
  });
  const data = catalogue.data;
  const filtered = !!search || !!departmentId;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Courses</Title>
        {mayCreate && (
          <Button
            component={Link}
            to="/course/create"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            Create course
          </Button>
        )}
      </Group>
      <Stack gap={4}>
        <Text component="span" size="sm" fw={500} id={scopeLabelId}>
          Show
        </Text>
        <SegmentedControl
          aria-labelledby={scopeLabelId}
          style={{ alignSelf: 'flex-start' }}
          data={[
            { value: 'mine', label: 'My courses' },
            { value: 'all', label: 'All courses' },
          ]}
          value={scope}
          onChange={(value) => filters.set({ scope: value === 'mine' ? 'mine' : null })}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 1 + Number(showDepartments) + Number(mayEdit) }}>
        <TextInput
          label="Search"
          placeholder="Code, title or summary"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          {...typedSearch.field}
        />
        {showDepartments && (
          <DepartmentFilter
            value={departmentId}
            onChange={(value) => filters.set({ department: value })}
          />
        )}
        {mayEdit && (
          <Select
            label="State"
            data={STATES.map((s) => ({ ...s }))}
            value={state}
            allowDeselect={false}
            onChange={(value) => filters.set({ state: value === 'published' ? null : value })}
          />
        )}
      </SimpleGrid>
      <QueryState query={catalogue} label="Loading courses" />
      {data && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {data.total === 1 ? '1 course' : `${data.total} courses`}
            </Text>
            {catalogue.isFetching && <Loader size="xs" aria-label="Updating" />}
          </Group>
          {data.items.length === 0 ? (
            <EmptyCatalogue
              scope={scope}
              filtered={filtered}
              onShowAll={() => filters.set({ scope: null })}
            />
          ) : (
            <SimpleGrid
              cols={{ base: 1, sm: 2, lg: 3 }}
              component="ul"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
              aria-label="Courses"
            >
              {data.items.map((course) => (
                <li key={course.id}>
                  <CourseCard course={course} headingOrder={2} />
                </li>
              ))}
            </SimpleGrid>
          )}
          <Pager
            label="Course pages"
            page={page}
            total={data.total}
            pageSize={data.pageSize}
            onChange={filters.setPage}
          />
        </>
      )}
    </Stack>
  );
}

function EmptyCatalogue({
  scope,
  filtered,
  onShowAll,
}: {
  scope: 'mine' | 'all';
  filtered: boolean;
  onShowAll(): void;
}) {
  if (filtered) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        No courses match these filters.
      </Text>
    );
  }
  if (scope === 'mine') {
    return (
      <Stack align="center" gap="xs" py="xl">
        <Text c="dimmed">You are not taking or teaching any course yet.</Text>
        <Button variant="light" onClick={onShowAll}>
          Browse all courses
        </Button>
      </Stack>
    );
  }
  return (
    <Text c="dimmed" ta="center" py="xl">
      There are no courses here yet.
    </Text>
  );
}
