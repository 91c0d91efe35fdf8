/**
 * A manager's dialogs for the members of a department: adding a person (found by name, with a
 * role and an optional end date), changing a member's role and end date, and removing one. The
 * server decides; its refusal (a member by account cannot be removed here) shows in the dialog.
 */
import type {
  DepartmentCandidateListSchema,
  DepartmentDetail,
  DepartmentMember,
} from '@learning-hub/core';
import { Badge, Group, Radio, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { z } from 'zod';
import { ConfirmModal } from '../../../components/confirm-modal';
import { PersonPicker } from '../../../components/person-picker';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { dayOf, endOfDayIso, EndDateField } from '../../../components/date-field';
import {
  useAddMember,
  useCandidates,
  useRemoveMember,
  useUpdateMember,
  type DepartmentRole,
} from '../api/departments-api';
import { displayName } from '../../../lib/format';

type Candidate = z.infer<typeof DepartmentCandidateListSchema>['items'][number];

/** How long the picker waits after the last key before it searches. */
const SEARCH_DEBOUNCE_MS = 300;

/** Role (Member or Manager) and an optional end date. */
function RoleAndEnd({
  role,
  onRole,
  endDate,
  onEndDate,
}: {
  role: DepartmentRole;
  onRole(role: DepartmentRole): void;
  endDate: string | null;
  onEndDate(day: string | null): void;
}) {
  return (
    <>
      <Radio.Group
        label="Role"
        value={role}
        onChange={(value) => onRole(value as DepartmentRole)}
        required
      >
        <Group mt="xs" gap="lg">
          <Radio value="department-member" label="Member" />
          <Radio value="department-manager" label="Manager" />
        </Group>
      </Radio.Group>
      <EndDateField
        description="Optional: the role ends after this day."
        placeholder="No end date"
        value={endDate}
        onChange={onEndDate}
      />
    </>
  );
}

export function AddMemberDialog({
  department,
  opened,
  onClose,
}: {
  department: DepartmentDetail;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title="Add member" size="lg">
      <AddMemberForm department={department} onClose={onClose} />
    </FormModal>
  );
}

function AddMemberForm({ department, onClose }: { department: DepartmentDetail; onClose(): void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<Candidate | null>(null);
  const [role, setRole] = useState<DepartmentRole>('department-member');
  const [endDate, setEndDate] = useState<string | null>(null);
  const candidates = useCandidates(department.id, chosen ? '' : debounced);
  const add = useAddMember(department.id);

  function submit() {
    if (!chosen) return;
    add.mutate(
      { userId: chosen.id, role, expiresAt: endOfDayIso(endDate) },
      {
        onSuccess: () => {
          onClose();
          notifications.show({
            color: 'green',
            message: `${chosen.name} was added to ${department.name}.`,
          });
        },
      },
    );
  }

  return (
    <FormStack onSubmit={submit}>
      <PersonPicker
        search={search}
        onSearch={setSearch}
        chosen={chosen}
        onChoose={setChosen}
        results={{
          searching: debounced !== '' && candidates.isPending,
          error: candidates.error,
          people: debounced !== '' && candidates.isSuccess ? candidates.data : undefined,
        }}
        nameOf={(person) => person.name}
        nobody="Nobody found by that name."
        labelOf={(person) =>
          `Choose ${person.name} (${person.username})${person.member ? ', already a member' : ''}`
        }
        detailOf={(person) => person.departmentName ?? 'No department'}
        markOf={(person) =>
          person.member && (
            <Badge variant="light" color="gray" tt="none">
              Already a member
            </Badge>
          )
        }
      />
      <RoleAndEnd role={role} onRole={setRole} endDate={endDate} onEndDate={setEndDate} />
      <FormActions submitLabel="Add member" mutation={add} disabled={!chosen} onCancel={onClose} />
    </FormStack>
  );
}

/** The role a member holds here as the dialog offers it. */
function currentRole(member: DepartmentMember): DepartmentRole {
  return member.roles.includes('department-manager') ? 'department-manager' : 'department-member';
}

export function EditMemberDialog({
  department,
  member,
  onClose,
}: {
  department: DepartmentDetail;
  member: DepartmentMember;
  onClose(): void;
}) {
  const [role, setRole] = useState<DepartmentRole>(currentRole(member));
  const [endDate, setEndDate] = useState<string | null>(dayOf(member.expiresAt));
  const update = useUpdateMember(department.id, member.id);
  const name = displayName(member);
  function submit() {
    update.mutate(
      { role, expiresAt: endOfDayIso(endDate) },
      {
        onSuccess: () => {
          onClose();
          notifications.show({ color: 'green', message: `The role of ${name} was saved.` });
        },
      },
    );
  }
  return (
    <FormModal opened onClose={onClose} title={`Role of ${name}`}>
      <FormStack onSubmit={submit}>
        {member.source === 'account' && (
          <Text size="sm" c="dimmed">
            {`${name} belongs to ${department.name} through their account: that membership stays whatever end date is set here.`}
          </Text>
        )}
        <RoleAndEnd role={role} onRole={setRole} endDate={endDate} onEndDate={setEndDate} />
        <FormActions submitLabel="Save" mutation={update} onCancel={onClose} />
      </FormStack>
    </FormModal>
  );
}

export function RemoveMemberDialog({
  department,
  member,
  onClose,
}: {
  department: DepartmentDetail;
  member: DepartmentMember;
  onClose(): void;
}) {
  const remove = useRemoveMember(department.id, member.id);
  const name = displayName(member);
  return (
    <ConfirmModal
      opened
      title="Remove from the department?"
      confirmLabel="Remove"
      danger
      busy={remove.isPending}
      error={remove.error?.message ?? null}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            onClose();
            notifications.show({
              color: 'green',
              message: `${name} was removed from ${department.name}.`,
            });
          },
        })
      }
    >
      {`${name} will no longer be a member or manager of ${department.name}.`}
    </ConfirmModal>
  );
}
