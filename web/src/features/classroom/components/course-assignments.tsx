/**
 * A course's assignments (docs/classroom.md, "Assignments"): the list with due dates and points,
 * the learner's own status or the grader's "to grade" count, and — for those who create
 * assignments — the editor (new, edit) and deleting one. The course page's Assignments tab and the
 * course creator's Assignments step are this one component.
 */
import {
  AssignmentCreateSchema,
  FILE_KINDS,
  LATE_POLICIES,
  type Assignment,
  type AssignmentCreate,
  type CourseDetail,
  type LatePolicy,
} from '@learning-hub/core';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPencil, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';

import { CALENDAR_LABELS } from '../../../components/date-field';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { formatDateTime } from '../../../lib/format';
import {
  latePolicyWords,
  overdueWords,
  useCourseAssignmentList,
  useCreateAssignment,
  useDeleteAssignment,
  useReloadAssignment,
  useUpdateAssignment,
} from '../api/assignments-api';
import { useReloadable } from '../../../components/stale-edit';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';
import { ConfirmModal } from '../../../components/confirm-modal';
import { fieldErrors } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { QueryState } from '../../../components/query-state';

/** The learner's state of an assignment in words. */
export function mineWords(a: Assignment): string {
  if (!a.mine) return '';
  switch (a.mine.status) {
    case 'none':
      return 'Not handed in';
    case 'draft':
      return 'Draft saved';
    case 'submitted':
      return 'Handed in';
    case 'graded':
      return a.mine.points === null ? 'Graded' : `Graded: ${a.mine.points} / ${a.points}`;
  }
}

export function CourseAssignments({ course }: { course: CourseDetail }) {
  const list = useCourseAssignmentList(course.id);
  const [editing, setEditing] = useState<Assignment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Assignment | null>(null);
  const remove = useDeleteAssignment();
  const canManage = course.viewer.canCreateAssignments;
  const isGrader = course.viewer.canViewSubmissions;
  // The time the tab was opened: what is overdue does not change under the reader's eyes.
  const [openedAt] = useState(() => Date.now());

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Assignments</Title>
        {canManage && <Button onClick={() => setEditing('new')}>New assignment</Button>}
      </Group>
      <QueryState
        query={list}
        label="Loading the assignments"
        errorTitle="Couldn't load the assignments"
      />
      {list.data && list.data.length === 0 && <Text>No assignments yet.</Text>}
      {list.data && list.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Assignments" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Assignment</Table.Th>
                <Table.Th>Due</Table.Th>
                <Table.Th>Points</Table.Th>
                <Table.Th>{isGrader ? 'To grade' : 'Status'}</Table.Th>
                {canManage && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={href('assignment', { courseId: course.id, assignmentId: a.id })}
                    >
                      {a.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <DueCell assignment={a} now={openedAt} />
                  </Table.Td>
                  <Table.Td>{a.points}</Table.Td>
                  <Table.Td>
                    {a.toGrade !== null ? (
                      <Badge color={a.toGrade > 0 ? 'orange' : 'gray'} variant="light">
                        {`${a.toGrade} to grade`}
                      </Badge>
                    ) : a.mine ? (
                      <Group gap={4}>
                        <Text size="sm">{mineWords(a)}</Text>
                        {a.mine.late && (
                          <Badge color="red" variant="light">
                            Late
                          </Badge>
                        )}
                      </Group>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  {canManage && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Edit ${a.title}`}
                          onClick={() => setEditing(a)}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red.8"
                          aria-label={`Delete ${a.title}`}
                          onClick={() => {
                            remove.reset();
                            setDeleting(a);
                          }}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing !== null && (
        <AssignmentEditor
          courseId={course.id}
          assignment={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={`Delete ${deleting?.title ?? 'assignment'}?`}
        confirmLabel="Delete assignment"
        danger
        busy={remove.isPending}
        error={remove.error?.message ?? null}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifications.show({
                color: 'green',
                title: 'Assignment deleted',
                message: deleting.title,
              });
              setDeleting(null);
            },
          });
        }}
      >
        The assignment and its instructions are deleted. An assignment with submissions or grades
        cannot be deleted.
      </ConfirmModal>
    </Stack>
  );
}

/** The due date, and for a learner whose work is past it and not handed in, a word saying so. */
export function DueCell({ assignment: a, now }: { assignment: Assignment; now: number }) {
  const overdue = overdueWords(a, now);
  return (
    <Group gap={4} wrap="wrap">
      <Text size="sm" span>
        {a.dueAt ? formatDateTime(a.dueAt) : 'No due date'}
      </Text>
      {overdue && (
        <Badge color={overdue === 'Overdue' ? 'red' : 'gray'} variant="light" tt="none">
          {overdue}
        </Badge>
      )}
    </Group>
  );
}

// ---------------------------------------------------------------- the editor

const FILE_KIND_LABEL: Record<(typeof FILE_KINDS)[number], string> = {
  pdf: 'PDF',
  image: 'Images',
  video: 'Video',
  office: 'Office documents',
  archive: 'ZIP archives',
  text: 'Plain text and CSV',
};

const LATE_LABEL: Record<LatePolicy, string> = {
  accept: 'Accept late work as on time',
  mark_late: 'Accept late work and mark it late',
  refuse: 'Refuse work after the due date',
};

const MB = 1024 * 1024;
/** The time a due date gets when only its day is picked: the end of that day. */
const DEFAULT_DUE_TIME = '23:59';
/** Names of the picker's own buttons (Mantine leaves them unnamed). */
interface EditorValues {
  title: string;
  instructionsHtml: string;
  /** DateTimePicker's value, 'YYYY-MM-DD HH:mm:ss', or null. */
  due: string | null;
  points: number | '';
  kinds: string[];
  fileKinds: string[];
  maxFileMb: number | '';
  latePolicy: LatePolicy;
  maxAttempts: number | '';
  releaseOnSave: boolean;
}

function valuesOf(a: Assignment | null): EditorValues {
  return {
    title: a?.title ?? '',
    instructionsHtml: a?.instructionsHtml ?? '',
    due: a?.dueAt ? dayjs(a.dueAt).format('YYYY-MM-DD HH:mm:ss') : null,
    points: a?.points ?? 100,
    kinds: a ? [...a.submissionKinds] : ['text', 'file'],
    fileKinds: a ? [...a.fileKinds] : [],
    maxFileMb: a ? Math.max(1, Math.round(a.maxFileBytes / MB)) : 20,
    latePolicy: a?.latePolicy ?? 'mark_late',
    maxAttempts: a?.maxAttempts ?? '',
    // A new assignment releases each grade as it is saved: a grade is given to be seen, and
    // trainers did not know that saving one kept it from the learner. Holding grades back (to
    // release them all at once) is the choice to make, by turning this off.
    releaseOnSave: a?.releaseOnSave ?? true,
  };
}

function toInput(v: EditorValues): AssignmentCreate {
  return {
    title: v.title,
    instructionsHtml: v.instructionsHtml,
    dueAt: v.due ? dayjs(v.due).toISOString() : null,
    points: v.points === '' ? 0 : v.points,
    submissionKinds: v.kinds as AssignmentCreate['submissionKinds'],
    fileKinds: v.fileKinds as AssignmentCreate['fileKinds'],
    maxFileBytes: v.maxFileMb === '' ? undefined : Math.round(v.maxFileMb * MB),
    latePolicy: v.latePolicy,
    maxAttempts: v.maxAttempts === '' ? null : v.maxAttempts,
    releaseOnSave: v.releaseOnSave,
  };
}

type EditorErrors = Partial<Record<keyof EditorValues, string>>;
const FIELD_OF: Record<string, keyof EditorValues> = {
  title: 'title',
  instructionsHtml: 'instructionsHtml',
  dueAt: 'due',
  points: 'points',
  submissionKinds: 'kinds',
  fileKinds: 'fileKinds',
  maxFileBytes: 'maxFileMb',
  latePolicy: 'latePolicy',
  maxAttempts: 'maxAttempts',
  releaseOnSave: 'releaseOnSave',
};

/**
 * A new assignment, or one as it was when the editor opened: its save sends that revision, and
 * when someone else changed it meanwhile, Reload fills the form with it as it is now
 * (docs/architecture.md, "Two people editing at once").
 */
function AssignmentEditor({
  courseId,
  assignment,
  onClose,
}: {
  courseId: string;
  assignment: Assignment | null;
  onClose(): void;
}) {
  const reload = useReloadAssignment();
  const loaded = useReloadable(assignment, async () =>
    assignment ? reload(assignment.id) : assignment,
  );
  return (
    <AssignmentForm
      key={loaded.key}
      courseId={courseId}
      assignment={loaded.value}
      onClose={onClose}
      onReload={loaded.onReload}
    />
  );
}

function AssignmentForm({
  courseId,
  assignment,
  onClose,
  onReload,
}: {
  courseId: string;
  assignment: Assignment | null;
  onClose(): void;
  onReload(): Promise<void>;
}) {
  const create = useCreateAssignment(courseId);
  const update = useUpdateAssignment();
  const [values, setValues] = useState<EditorValues>(() => valuesOf(assignment));
  const [errors, setErrors] = useState<EditorErrors>({});
  const saving = create.isPending || update.isPending;
  const serverError = create.error ?? update.error;
  const set = (patch: Partial<EditorValues>) => setValues((v) => ({ ...v, ...patch }));
  const pastDue = values.due !== null && dayjs(values.due).isBefore(dayjs());

  function submit() {
    const parsed = AssignmentCreateSchema.safeParse(toInput(values));
    if (!parsed.success) {
      const found: EditorErrors = {};
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) {
        const key = FIELD_OF[field];
        if (key) found[key] ??= message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    const done = (title: string) => {
      notifications.show({ color: 'green', title, message: parsed.data.title });
      onClose();
    };
    if (assignment) {
      update.mutate(
        { assignmentId: assignment.id, input: { ...parsed.data, revision: assignment.revision } },
        { onSuccess: () => done('Assignment saved') },
      );
    } else {
      create.mutate(parsed.data, { onSuccess: () => done('Assignment created') });
    }
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title={assignment ? `Edit ${assignment.title}` : 'New assignment'}
      size="xl"
    >
      <FormStack onSubmit={submit}>
        <TextInput
          label="Title"
          required
          value={values.title}
          error={errors.title}
          onChange={(e) => set({ title: e.currentTarget.value })}
        />
        <RichTextEditor
          label="Instructions"
          value={values.instructionsHtml}
          error={errors.instructionsHtml}
          onChange={(instructionsHtml) => set({ instructionsHtml })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DateTimePicker
            label="Due date and time"
            placeholder="No due date"
            // The picker shows its placeholder as text: Mantine's placeholder grey is below
            // AA contrast for text, the dimmed colour is not (axe: color-contrast).
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            clearable
            valueFormat="YYYY-MM-DD HH:mm"
            // A day picked is due at its end, not at midnight before it; a date already set
            // keeps its own time when another day is picked.
            defaultTimeValue={values.due ? undefined : DEFAULT_DUE_TIME}
            // Only the month shown: a day of the next or previous month was easy to pick by
            // mistake in the corners of the grid.
            hideOutsideDates
            ariaLabels={CALENDAR_LABELS}
            submitButtonProps={{ 'aria-label': 'Done' }}
            // The open calendar is a dialog with a name (axe: aria-dialog-name), and weekends
            // are not set in red (below AA contrast on the light grid; axe: color-contrast).
            popoverProps={{ attributes: { dropdown: { 'aria-label': 'Choose the due date' } } }}
            weekendDays={[]}
            value={values.due}
            error={errors.due}
            // A past date is allowed (work set after the fact), but said: a warning, not an error.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            description={
              pastDue ? (
                <Group gap={4} component="span" c="var(--mantine-color-yellow-light-color)">
                  <IconAlertTriangle size={14} aria-hidden />
                  This date is in the past.
                </Group>
              ) : undefined
            }
            onChange={(due) => set({ due })}
          />
          <NumberInput
            label="Points"
            min={0}
            max={10_000}
            allowDecimal={false}
            allowNegative={false}
            value={values.points}
            error={errors.points}
            onChange={(v) => set({ points: typeof v === 'number' ? v : '' })}
          />
        </SimpleGrid>
        <Checkbox.Group
          label="Learners hand in"
          value={values.kinds}
          error={errors.kinds}
          onChange={(kinds) => set({ kinds })}
        >
          <Group mt={4}>
            <Checkbox value="text" label="A text answer" />
            <Checkbox value="file" label="Files" />
          </Group>
        </Checkbox.Group>
        {values.kinds.includes('file') && (
          <>
            <Checkbox.Group
              label="Allowed file types"
              description="None ticked: any type"
              value={values.fileKinds}
              error={errors.fileKinds}
              onChange={(fileKinds) => set({ fileKinds })}
            >
              <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} mt={4}>
                {FILE_KINDS.map((kind) => (
                  <Checkbox key={kind} value={kind} label={FILE_KIND_LABEL[kind]} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <NumberInput
              label="Largest file (MB)"
              min={1}
              allowNegative={false}
              value={values.maxFileMb}
              error={errors.maxFileMb}
              onChange={(v) => set({ maxFileMb: typeof v === 'number' ? v : '' })}
              maw={240}
            />
          </>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Late work"
            data={LATE_POLICIES.map((p) => ({ value: p, label: LATE_LABEL[p] }))}
            value={values.latePolicy}
            allowDeselect={false}
            error={errors.latePolicy}
            description={latePolicyWords(values.latePolicy)}
            onChange={(p) => p && set({ latePolicy: p as LatePolicy })}
          />
          <NumberInput
            label="Attempts allowed"
            description="Empty: unlimited"
            min={1}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            value={values.maxAttempts}
            error={errors.maxAttempts}
            onChange={(v) => set({ maxAttempts: typeof v === 'number' ? v : '' })}
          />
        </SimpleGrid>
        <Switch
          label="Release grades when saved"
          description={
            values.releaseOnSave
              ? 'Learners see each grade as soon as it is saved.'
              : 'Grades stay hidden from learners until you release them.'
          }
          checked={values.releaseOnSave}
          onChange={(e) => set({ releaseOnSave: e.currentTarget.checked })}
        />
        <FormActions
          submitLabel={assignment ? 'Save assignment' : 'Create assignment'}
          busy={saving}
          error={serverError}
          onReload={onReload}
          onCancel={onClose}
        />
      </FormStack>
    </FormModal>
  );
}
