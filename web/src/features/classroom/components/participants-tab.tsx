import {
  COURSE_ROLE_IDS,
  type CourseDetail,
  type CourseRole,
  type ParticipantSchema,
} from '@learning-hub/core';
import type { z } from 'zod';
import { Badge, Button, Checkbox, Group, Progress, Stack, Text } from '@mantine/core';
import { DataList, type DataListColumn } from '../../../components/data-list';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { PersonPicker } from '../../../components/person-picker';
import { dayOf, endOfDayIso, EndDateField } from '../../../components/date-field';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { displayName } from '../../../lib/format';
import { courseRoleLabel, formatDate } from '../course-format';
import {
  useCandidates,
  useParticipants,
  useRemoveParticipant,
  useSetParticipant,
  type Candidate,
} from '../api/courses-api';
import { QueryState } from '../../../components/query-state';

interface Person {
  id: string;
  username: string;
  firstname: string;
  lastname: string;
}

/** Roles (course-student, -assistant, -instructor) and an optional end date. */
function RolesAndEnd({
  roles,
  onRoles,
  endDate,
  onEndDate,
}: {
  roles: CourseRole[];
  onRoles(roles: CourseRole[]): void;
  endDate: string | null;
  onEndDate(date: string | null): void;
}) {
  return (
    <>
      <Checkbox.Group
        label="Roles in this course"
        value={roles}
        onChange={(value) => onRoles(value as CourseRole[])}
        required
      >
        <Group mt="xs" gap="md">
          {[...COURSE_ROLE_IDS].reverse().map((role) => (
            <Checkbox key={role} value={role} label={courseRoleLabel(role)} />
          ))}
        </Group>
      </Checkbox.Group>
      <EndDateField
        description="Optional: the roles end after this day."
        placeholder="No end"
        value={endDate}
        onChange={onEndDate}
      />
    </>
  );
}

function AddPeopleModal({
  course,
  opened,
  onClose,
}: {
  course: CourseDetail;
  opened: boolean;
  onClose(): void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [chosen, setChosen] = useState<Candidate | null>(null);
  const [roles, setRoles] = useState<CourseRole[]>(['course-student']);
  const [endDate, setEndDate] = useState<string | null>(null);
  const candidates = useCandidates(course.id, debounced, opened);
  const save = useSetParticipant(course.id);

  const close = () => {
    setSearch('');
    setChosen(null);
    setRoles(['course-student']);
    setEndDate(null);
    save.reset();
    onClose();
  };

  function submit() {
    if (!chosen || roles.length === 0) return;
    save.mutate(
      { userId: chosen.id, roles, endsAt: endOfDayIso(endDate) },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            title: 'Added',
            message: `${displayName(chosen)} was added to ${course.title}.`,
          });
          close();
        },
      },
    );
  }

  return (
    <FormModal opened={opened} onClose={close} title="Add people" centered size="lg">
      <FormStack onSubmit={submit}>
        <PersonPicker
          search={search}
          onSearch={setSearch}
          chosen={chosen}
          onChoose={setChosen}
          results={{
            searching: candidates.isPending,
            error: candidates.error,
            people: candidates.data,
          }}
          nameOf={displayName}
          nobody="Nobody found who is not in the course already."
        />
        <RolesAndEnd roles={roles} onRoles={setRoles} endDate={endDate} onEndDate={setEndDate} />
        <FormActions
          submitLabel="Add to course"
          mutation={save}
          disabled={!chosen || roles.length === 0}
          onCancel={close}
        />
      </FormStack>
    </FormModal>
  );
}

interface Member extends Person {
  roles: string[];
  expiresAt: string | null;
}

function EditParticipantModal({
  course,
  member,
  onClose,
}: {
  course: CourseDetail;
  member: Member;
  onClose(): void;
}) {
  const [roles, setRoles] = useState<CourseRole[]>(
    member.roles.filter((r): r is CourseRole => (COURSE_ROLE_IDS as readonly string[]).includes(r)),
  );
  const [endDate, setEndDate] = useState<string | null>(dayOf(member.expiresAt));
  const save = useSetParticipant(course.id);
  return (
    <FormModal opened onClose={onClose} title={`Roles of ${displayName(member)}`} centered>
      <FormStack
        onSubmit={() =>
          save.mutate(
            { userId: member.id, roles, endsAt: endOfDayIso(endDate) },
            { onSuccess: onClose },
          )
        }
      >
        <RolesAndEnd roles={roles} onRoles={setRoles} endDate={endDate} onEndDate={setEndDate} />
        <FormActions
          submitLabel="Save"
          mutation={save}
          disabled={roles.length === 0}
          onCancel={onClose}
        />
      </FormStack>
    </FormModal>
  );
}

function RemoveParticipantModal({
  course,
  member,
  onClose,
}: {
  course: CourseDetail;
  member: Member;
  onClose(): void;
}) {
  const remove = useRemoveParticipant(course.id);
  return (
    <ConfirmModal
      opened
      title="Remove from the course?"
      confirmLabel="Remove"
      danger
      busy={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => remove.mutate(member.id, { onSuccess: onClose })}
    >
      {`${displayName(member)} loses every role in ${course.title}. Their work and grades are kept.`}
    </ConfirmModal>
  );
}

/** A table on a wide screen, a card per person on a phone (components/data-list.tsx). */
const PARTICIPANT_COLUMNS: readonly DataListColumn<z.infer<typeof ParticipantSchema>>[] = [
  {
    header: 'Name',
    cell: (member) => (
      <>
        <Text size="sm">{displayName(member)}</Text>
        <Text size="xs" c="dimmed">
          {member.username}
        </Text>
      </>
    ),
    card: 'title',
  },
  {
    header: 'Roles',
    cell: (member) => (
      <Group gap={4}>
        {member.roles.map((role) => (
          <Badge key={role} variant="light" tt="none">
            {courseRoleLabel(role)}
          </Badge>
        ))}
      </Group>
    ),
    card: 'aside',
  },
  {
    header: 'Ends',
    cell: (member) => (member.expiresAt ? formatDate(member.expiresAt) : 'No end'),
  },
  {
    header: 'Progress',
    cell: (member) =>
      member.progress ? (
        <Group gap="xs" wrap="nowrap">
          <Progress
            value={member.progress.percent}
            w={80}
            aria-label={`Progress of ${displayName(member)}`}
          />
          <Text size="xs">{`${member.progress.percent}%`}</Text>
        </Group>
      ) : (
        '—'
      ),
  },
];

/** The course's people: roles, end dates, learners' progress; managing them when allowed. */
export function ParticipantsTab({ course }: { course: CourseDetail }) {
  const manage = course.viewer.canManageParticipants;
  const participants = useParticipants(course.id, course.viewer.canViewParticipants);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  return (
    <Stack gap="md">
      {manage && (
        <Group justify="flex-end">
          <Button
            leftSection={<IconUserPlus size={16} aria-hidden="true" />}
            onClick={() => setAdding(true)}
          >
            Add people
          </Button>
        </Group>
      )}
      <QueryState query={participants} label="Loading participants" />
      {participants.data && (
        <DataList
          rows={participants.data}
          rowKey={(member) => member.id}
          columns={PARTICIPANT_COLUMNS}
          label="Participants"
          minWidth={manage ? 720 : 560}
          empty={
            <Text c="dimmed" ta="center" py="md">
              Nobody takes part in this course yet.
            </Text>
          }
          actions={
            manage
              ? (member) => (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setEditing(member)}
                      aria-label={`Change roles of ${displayName(member)}`}
                    >
                      Change
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setRemoving(member)}
                      aria-label={`Remove ${displayName(member)}`}
                    >
                      Remove
                    </Button>
                  </Group>
                )
              : undefined
          }
        />
      )}
      {manage && (
        <AddPeopleModal course={course} opened={adding} onClose={() => setAdding(false)} />
      )}
      {editing && (
        <EditParticipantModal course={course} member={editing} onClose={() => setEditing(null)} />
      )}
      {removing && (
        <RemoveParticipantModal
          course={course}
          member={removing}
          onClose={() => setRemoving(null)}
        />
      )}
    </Stack>
  );
}
