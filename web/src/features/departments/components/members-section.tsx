/**
 * A department's members: search and paging in the URL (`?search=&page=`), a table on a wide
 * screen and cards on a phone (`DataList`). With department.manage there (and the department not
 * archived): adding people, changing a member's role and end date, removing one.
 */
import type { DepartmentDetail, DepartmentMember } from '@learning-hub/core';
import { Badge, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { Pager } from '../../../components/pager';
import { useFilterParams, useTypedFilter } from '../../../lib/use-filter-params';
import { MEMBERS_PAGE_SIZE, useMembers } from '../api/departments-api';
import { roleLabels, untilText } from './department-format';
import { AddMemberDialog, EditMemberDialog, RemoveMemberDialog } from './member-dialogs';
import { QueryState } from '../../../components/query-state';
import { displayName, countText } from '../../../lib/format';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; member: DepartmentMember }
  | { kind: 'remove'; member: DepartmentMember }
  | null;

const SOURCE_LABELS = { account: 'By account', assignment: 'Assigned' } as const;

function endText(member: DepartmentMember): string {
  if (member.expiresAt) return untilText(member.expiresAt);
  return member.source === 'account' ? '—' : 'No end date';
}

export function MembersSection({
  department,
  manage,
}: {
  department: DepartmentDetail;
  /** department.manage there, and the department is not archived. */
  manage: boolean;
}) {
  const filters = useFilterParams();
  const search = filters.get('search') ?? '';
  const page = filters.page;
  const typedSearch = useTypedFilter(filters, 'search');
  const members = useMembers(department.id, {
    search: search || null,
    page,
    pageSize: MEMBERS_PAGE_SIZE,
  });
  const [dialog, setDialog] = useState<Dialog>(null);
  const data = members.data;
  const actions = manage
    ? {
        edit: (member: DepartmentMember) => setDialog({ kind: 'edit', member }),
        remove: (member: DepartmentMember) => setDialog({ kind: 'remove', member }),
      }
    : null;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label="Search members"
          placeholder="Name or username"
          leftSection={<IconSearch size={16} aria-hidden />}
          {...typedSearch.field}
          style={{ flex: '1 1 14rem' }}
        />
        {manage && (
          <Button
            leftSection={<IconUserPlus size={16} aria-hidden />}
            onClick={() => setDialog({ kind: 'add' })}
          >
            Add member
          </Button>
        )}
      </Group>
      <QueryState query={members} label="Loading the members" />
      {data && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {countText(data.total, 'member', 'members')}
            </Text>
            {members.isFetching && <Loader size="xs" aria-label="Updating" />}
          </Group>
          {data.items.length === 0 ? (
            <Text c="dimmed" ta="center" py="md">
              {search ? 'Nobody matches this search.' : 'This department has no members yet.'}
            </Text>
          ) : (
            <DataList
              label="Members"
              rows={data.items}
              rowKey={(member) => member.id}
              columns={MEMBER_COLUMNS}
              actions={
                actions
                  ? (member) => <MemberActions member={member} actions={actions} />
                  : undefined
              }
              minWidth={actions ? 760 : 600}
            />
          )}
          <Pager
            label="Member pages"
            page={page}
            total={data.total}
            pageSize={data.pageSize}
            onChange={filters.setPage}
          />
        </>
      )}
      {manage && (
        <AddMemberDialog
          department={department}
          opened={dialog?.kind === 'add'}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditMemberDialog
          department={department}
          member={dialog.member}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'remove' && (
        <RemoveMemberDialog
          department={department}
          member={dialog.member}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}

interface RowActions {
  edit(member: DepartmentMember): void;
  remove(member: DepartmentMember): void;
}

function RoleBadges({ member }: { member: DepartmentMember }) {
  return (
    <Group gap={4}>
      {roleLabels(member.roles).map((label) => (
        <Badge key={label} variant="light" tt="none" color={label === 'Manager' ? 'blue' : 'gray'}>
          {label}
        </Badge>
      ))}
    </Group>
  );
}

function MemberActions({ member, actions }: { member: DepartmentMember; actions: RowActions }) {
  const name = displayName(member);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="default"
        onClick={() => actions.edit(member)}
        aria-label={`Change role or end date of ${name}`}
      >
        Change
      </Button>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => actions.remove(member)}
        aria-label={`Remove ${name}`}
      >
        Remove
      </Button>
    </Group>
  );
}

const MEMBER_COLUMNS: DataListColumn<DepartmentMember>[] = [
  { header: 'Name', cell: displayName, card: 'title' },
  { header: 'Role', cell: (member) => <RoleBadges member={member} />, card: 'aside' },
  { header: 'Username', cell: (member) => member.username, card: 'subtitle' },
  { header: 'Membership', cell: (member) => SOURCE_LABELS[member.source], card: 'meta' },
  {
    header: 'Ends',
    cell: endText,
    cardCell: (member) => (member.expiresAt ? untilText(member.expiresAt) : ''),
    card: 'meta',
  },
];
