import {
  PERMISSION_CATALOGUE,
  PERMISSIONS,
  ROUTES,
  type SimulateResponse,
} from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Group,
  Input,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useState } from 'react';
import { generatePath, Link } from 'react-router';
import { displayName } from '../../../lib/format';
import { useUserList } from '../../admin/api/users-api';
import { useCourseChoices } from '../../classroom/api/courses-api';
import { useDepartmentChoices } from '../../departments/api/departments-api';
import { PICKER_SIZE, useSimulate } from '../api/simulator-api';
import { GrantChains } from './grant-list';
import { SearchSelect } from './search-select';

type Kind = 'permission' | 'page';
type ScopeKind = 'system' | 'any' | 'course' | 'department';
export const OTHER_PATH = '__other__';

interface SimulatorValues {
  userId: string | null;
  kind: Kind;
  permission: string;
  scopeKind: ScopeKind;
  courseId: string | null;
  departmentId: string | null;
  route: string | null;
  /** Values of the chosen route's parameters (`deptName`, …). */
  params: Record<string, string>;
  path: string;
}

const PERMISSION_DATA = Object.keys(PERMISSION_CATALOGUE).map((resource) => ({
  group: resource,
  items: PERMISSIONS.filter((p) => p.resource === resource).map((p) => p.id),
}));

const ROUTE_DATA = [
  ...ROUTES.map((r) => ({ value: r.path, label: `${r.path} · ${r.title}` })),
  { value: OTHER_PATH, label: 'Another path…' },
];

/** The `:name` parameters of a route pattern. */
export function routeParams(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((part) => part.startsWith(':'))
    .map((part) => part.slice(1));
}

/** The path to check for the chosen route (its parameters filled in) or the typed path. */
function pathOf(values: SimulatorValues): string {
  if (values.route === OTHER_PATH) return values.path.trim();
  if (!values.route) return '';
  return generatePath(values.route, values.params);
}

function scopeOf(values: SimulatorValues): string {
  switch (values.scopeKind) {
    case 'course':
      return `course:${values.courseId ?? ''}`;
    case 'department':
      return `department:${values.departmentId ?? ''}`;
    default:
      return values.scopeKind;
  }
}

function Result({ result }: { result: SimulateResponse }) {
  const { checked } = result;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="result-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="result-heading">
          Result
        </Title>
        <Alert
          color={result.allowed ? 'green' : 'red'}
          variant="light"
          icon={
            <ThemeIcon color={result.allowed ? 'green' : 'red'} variant="transparent" size="lg">
              {result.allowed ? (
                <IconCircleCheck aria-hidden="true" />
              ) : (
                <IconCircleX aria-hidden="true" />
              )}
            </ThemeIcon>
          }
          title={
            <Text fz={28} fw={800} lh={1.1} component="span" data-testid="verdict">
              {result.allowed ? 'Allowed' : 'Denied'}
            </Text>
          }
        >
          <Text size="md">{result.reason ?? 'Every requirement is met.'}</Text>
        </Alert>
        <Stack gap="xs">
          <Title order={3} size="h4" id="checked-heading">
            What was checked
          </Title>
          <Table
            variant="vertical"
            layout="fixed"
            withTableBorder
            aria-labelledby="checked-heading"
          >
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>Permissions</Table.Th>
                <Table.Td>
                  {checked.permissions.length === 0 ? (
                    'None: any signed-in user'
                  ) : (
                    <Group gap={4}>
                      {checked.permissions.map((p) => (
                        <Badge key={p} variant="outline" tt="none" ff="monospace">
                          {p}
                        </Badge>
                      ))}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Mode</Table.Th>
                <Table.Td>
                  {checked.mode === 'any' ? 'Any one of them (any)' : 'Every one of them (all)'}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Roles</Table.Th>
                <Table.Td>
                  {checked.roles.length === 0
                    ? 'No role required'
                    : `${checked.roles.join(' or ')} (admin always passes)`}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Scope</Table.Th>
                <Table.Td ff="monospace">{checked.scope}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Matched route</Table.Th>
                <Table.Td ff="monospace">{checked.route ?? '—'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
        {result.grants.length > 0 && (
          <Stack gap="xs">
            <Title order={3} size="h4">
              Where the permissions come from
            </Title>
            <GrantChains entries={result.grants} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** /admin-test: what a user may do, checked by the server with the same rules as every request. */
export function PermissionSimulatorPage() {
  const narrow = useMediaQuery('(max-width: 30em)');
  const simulate = useSimulate();
  const [userQuery, setUserQuery] = useState('');
  const [courseQuery, setCourseQuery] = useState('');
  const users = useUserList({ search: userQuery, page: 1, pageSize: PICKER_SIZE });
  const courses = useCourseChoices(courseQuery);
  const departments = useDepartmentChoices();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SimulateResponse | null>(null);

  const form = useForm<SimulatorValues>({
    initialValues: {
      userId: null,
      kind: 'permission',
      permission: '',
      scopeKind: 'system',
      courseId: null,
      departmentId: null,
      route: null,
      params: {},
      path: '',
    },
    validate: (v) => {
      const errors: Record<string, string> = {};
      if (!v.userId) errors.userId = 'Choose a user';
      if (v.kind === 'permission') {
        if (!v.permission.trim()) errors.permission = 'Enter a permission';
        if (v.scopeKind === 'course' && !v.courseId) errors.courseId = 'Choose a course';
        if (v.scopeKind === 'department' && !v.departmentId) {
          errors.departmentId = 'Choose a department';
        }
      } else if (!v.route) {
        errors.route = 'Choose a page';
      } else if (v.route === OTHER_PATH) {
        if (!v.path.trim().startsWith('/')) errors.path = 'A path starts with /';
      } else {
        for (const name of routeParams(v.route)) {
          if (!v.params[name]?.trim()) errors[`params.${name}`] = `Give the ${name}`;
        }
      }
      return errors;
    },
  });
  const values = form.getValues();

  const run = async (v: SimulatorValues) => {
    setError(null);
    try {
      const answer = await simulate.mutateAsync(
        v.kind === 'permission'
          ? { userId: v.userId ?? '', permission: v.permission.trim(), scope: scopeOf(v) }
          : { userId: v.userId ?? '', route: pathOf(v) },
      );
      setResult(answer);
    } catch (e) {
      setResult(null);
      setError(e instanceof Error ? e.message : 'Something went wrong');
    }
  };

  const departmentOptions = (departments.data ?? []).map((d) => ({ value: d.id, label: d.name }));

  return (
    <Stack gap="lg" maw={1000}>
      <Stack gap={4}>
        <Anchor component={Link} to="/admin" size="sm">
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={14} aria-hidden="true" />
            Admin Settings
          </Group>
        </Anchor>
        <Title order={1}>Permission Simulator</Title>
        <Text c="dimmed">
          Check what a user may do: one permission in a context, or a page of the app. The server
          answers with the user&apos;s current role, permissions and assignments, exactly as it
          decides their requests. Nothing is changed and the check is not recorded.
        </Text>
      </Stack>
      <Paper withBorder p="lg" component="section" aria-labelledby="simulate-heading">
        <form onSubmit={form.onSubmit((v) => void run(v))} noValidate>
          <Stack gap="md">
            <Title order={2} size="h3" id="simulate-heading">
              What to check
            </Title>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <SearchSelect
              label="User"
              placeholder="Search by name, username or email"
              withAsterisk
              value={values.userId}
              onChange={(id) => form.setFieldValue('userId', id)}
              error={form.errors.userId}
              options={(users.data?.items ?? []).map((u) => ({
                value: u.id,
                label: `${displayName(u)} (${u.username})`,
              }))}
              loading={users.isFetching}
              onQueryChange={setUserQuery}
              nothingFound="No users found"
              maw={480}
            />
            <Stack gap={4}>
              <Input.Label id="kind-label">Check</Input.Label>
              <SegmentedControl
                aria-labelledby="kind-label"
                data={[
                  { value: 'permission', label: 'Permission' },
                  { value: 'page', label: 'Page' },
                ]}
                value={values.kind}
                onChange={(kind) => form.setFieldValue('kind', kind as Kind)}
                w="fit-content"
              />
            </Stack>
            {values.kind === 'permission' ? (
              <>
                <Autocomplete
                  label="Permission"
                  description="Pick one of the catalogue, or type any id."
                  placeholder="e.g. course.view"
                  withAsterisk
                  data={PERMISSION_DATA}
                  maxDropdownHeight={300}
                  maw={480}
                  {...form.getInputProps('permission')}
                />
                <Stack gap={4}>
                  <Input.Label id="scope-label">Context</Input.Label>
                  <SegmentedControl
                    aria-labelledby="scope-label"
                    data={[
                      { value: 'system', label: 'System' },
                      { value: 'any', label: 'Any context' },
                      { value: 'course', label: 'A course' },
                      { value: 'department', label: 'A department' },
                    ]}
                    value={values.scopeKind}
                    onChange={(kind) => form.setFieldValue('scopeKind', kind as ScopeKind)}
                    orientation={narrow ? 'vertical' : 'horizontal'}
                    w={narrow ? '100%' : 'fit-content'}
                  />
                </Stack>
                {values.scopeKind === 'course' && (
                  <SearchSelect
                    label="Course"
                    placeholder="Search courses"
                    withAsterisk
                    value={values.courseId}
                    onChange={(id) => form.setFieldValue('courseId', id)}
                    error={form.errors.courseId}
                    options={(courses.data?.items ?? []).map((c) => ({
                      value: c.id,
                      label: `${c.code} · ${c.title}`,
                    }))}
                    loading={courses.isFetching}
                    onQueryChange={setCourseQuery}
                    nothingFound="No courses found"
                    maw={480}
                  />
                )}
                {values.scopeKind === 'department' && (
                  <Select
                    label="Department"
                    placeholder="Choose a department"
                    withAsterisk
                    data={departmentOptions}
                    maw={480}
                    {...form.getInputProps('departmentId')}
                  />
                )}
              </>
            ) : (
              <>
                <Select
                  label="Page"
                  placeholder="Choose a page of the app"
                  withAsterisk
                  searchable
                  data={ROUTE_DATA}
                  maxDropdownHeight={320}
                  maw={480}
                  {...form.getInputProps('route')}
                  onChange={(route) => {
                    form.setFieldValue('route', route);
                    form.setFieldValue('params', {});
                  }}
                />
                {values.route === OTHER_PATH && (
                  <TextInput
                    label="Path"
                    description="Any path of the app, e.g. /departments/field-operations"
                    placeholder="/…"
                    withAsterisk
                    maw={480}
                    {...form.getInputProps('path')}
                  />
                )}
                {values.route &&
                  values.route !== OTHER_PATH &&
                  routeParams(values.route).length > 0 && (
                    <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
                      {routeParams(values.route).map((name) =>
                        name === 'deptName' ? (
                          <Select
                            key={name}
                            label="Department"
                            placeholder="Choose a department"
                            withAsterisk
                            data={departmentOptions}
                            {...form.getInputProps(`params.${name}`)}
                          />
                        ) : (
                          <TextInput
                            key={name}
                            label={name}
                            withAsterisk
                            {...form.getInputProps(`params.${name}`)}
                          />
                        ),
                      )}
                    </SimpleGrid>
                  )}
              </>
            )}
            <Group>
              <Button type="submit" loading={simulate.isPending}>
                Run
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <div aria-live="polite">{result && <Result result={result} />}</div>
    </Stack>
  );
}
