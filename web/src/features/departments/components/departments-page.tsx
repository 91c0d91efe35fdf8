/**
 * /departments: the departments the user may open (the server lists only those), each with an
 * excerpt of its description, its member count and managers. Admins create departments and may
 * show the archived ones too (`?archived=true`); the server refuses both to anyone else.
 */
import type { z } from 'zod';
import type { DepartmentSchema } from '@learning-hub/core';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useCan } from '../../../lib/auth/use-can';

import { useFilterParams } from '../../../lib/use-filter-params';
import { useDepartments } from '../api/departments-api';
import { CreateDepartmentDialog } from './create-department-dialog';
import { plainExcerpt } from './department-format';
import { QueryState } from '../../../components/query-state';
import { countText } from '../../../lib/format';
import { href } from '../../../lib/links';

type Department = z.infer<typeof DepartmentSchema>;

/** What the admin-only tools need (the server checks the same). */
const ADMIN = { permissions: ['system.admin'], roles: ['admin'] } as const;

export function DepartmentsPage() {
  const can = useCan();
  const isAdmin = can.requirement(ADMIN).allowed;
  const filters = useFilterParams();
  const archived = isAdmin && filters.get('archived') === 'true';
  const list = useDepartments(archived);
  const [creating, setCreating] = useState(false);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1}>Departments</Title>
        {isAdmin && (
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
          >
            New department
          </Button>
        )}
      </Group>
      {isAdmin && (
        <Switch
          label="Show archived"
          checked={archived}
          onChange={(event) =>
            filters.set({ archived: event.currentTarget.checked ? 'true' : null })
          }
        />
      )}
      <QueryState query={list} label="Loading the departments" />
      {list.data &&
        (list.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            {isAdmin
              ? 'There are no departments yet. Create the first one with New department.'
              : 'There is no department for you to open.'}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {list.data.map((department) => (
              <DepartmentCard key={department.id} department={department} />
            ))}
          </SimpleGrid>
        ))}
      {isAdmin && <CreateDepartmentDialog opened={creating} onClose={() => setCreating(false)} />}
    </Stack>
  );
}

function DepartmentCard({ department }: { department: Department }) {
  const titleId = useId();
  const excerpt = plainExcerpt(department.description);
  const managers = department.managers.map((m) => m.name);
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            <Anchor
              component={Link}
              to={href('department', { deptName: department.slug ?? department.id })}
              inherit
            >
              {department.name}
            </Anchor>
          </Title>
          {department.archivedAt && (
            <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
              Archived
            </Badge>
          )}
        </Group>
        {excerpt && (
          <Text size="sm" c="dimmed">
            {excerpt}
          </Text>
        )}
        <Group gap={6} wrap="nowrap">
          <IconUsers size={16} aria-hidden />
          <Text size="sm">{countText(department.memberCount, 'member', 'members')}</Text>
        </Group>
        <Text size="sm">
          {managers.length === 0
            ? 'No managers'
            : `${managers.length === 1 ? 'Manager' : 'Managers'}: ${managers.join(', ')}`}
        </Text>
      </Stack>
    </Card>
  );
}
