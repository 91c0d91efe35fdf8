/**
 * One assignment (`/classroom/:courseId/assignments/:assignmentId`, docs/classroom.md): the
 * instructions, due date, late policy and attached files; for a learner the answer form (text,
 * files with upload progress, save draft, hand in) and their earlier attempts with released
 * grades; for graders everyone's latest attempt with a link to grade it, and releasing grades.
 */
import {
  FILE_KIND_MIME,
  SUBMISSION_FILES_MAX,
  type AssignmentDetail,
  type Submission,
  type SubmissionFile,
} from '@learning-hub/core';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { notifications } from '@mantine/notifications';
import { IconUpload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  preloadRichTextEditor,
  RichTextEditor,
} from '../../../components/rich-text/rich-text-editor';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import {
  formatBytes,
  latePolicyWords,
  overdueWords,
  useAssignment,
  useSaveSubmission,
  useSubmissions,
} from '../api/assignments-api';
import { formatDateTime } from '../../../lib/format';
import { discardUpload, uploadFile } from '../../../lib/upload';
import { ConfirmModal } from '../../../components/confirm-modal';

import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { forbiddenReason } from '../../../lib/access-denial';
import { GradeRelease } from './grade-release';
import { href } from '../../../lib/links';
import { QueryState } from '../../../components/query-state';

/** A file as a download link with its size. */
export function FileLink({ file }: { file: SubmissionFile }) {
  return (
    <Anchor href={file.url} download={file.name}>
      {`${file.name} (${formatBytes(file.size)})`}
    </Anchor>
  );
}

/** A file shown where it is: image, PDF, video inline; anything else as a download link. */
export function InlineFile({ file }: { file: SubmissionFile }) {
  if (file.mime.startsWith('image/')) {
    return (
      <Stack gap={4}>
        <img src={file.url} alt={file.name} style={{ maxWidth: '100%', height: 'auto' }} />
        <FileLink file={file} />
      </Stack>
    );
  }
  if (file.mime === 'application/pdf') {
    return (
      <Stack gap={4}>
        <iframe
          title={`${file.name} (PDF)`}
          src={file.url}
          style={{
            width: '100%',
            height: '70vh',
            border: '1px solid var(--mantine-color-default-border)',
          }}
        />
        <FileLink file={file} />
      </Stack>
    );
  }
  if (file.mime.startsWith('video/')) {
    return (
      <Stack gap={4}>
        <video controls src={file.url} aria-label={file.name} style={{ maxWidth: '100%' }} />
        <FileLink file={file} />
      </Stack>
    );
  }
  return <FileLink file={file} />;
}

export function AssignmentPage() {
  const { courseId = '', assignmentId = '' } = useParams();
  // The answer box is an editor: its code loads while the assignment does.
  useEffect(() => void preloadRichTextEditor(), []);
  const assignment = useAssignment(assignmentId);

  if (assignment.isLoading) return <Loader aria-label="Loading the assignment" />;
  const refused = forbiddenReason(assignment.error);
  if (refused) {
    return (
      <AccessDeniedRedirect
        page="this assignment"
        reason={refused}
        to={href('course', { courseId })}
      />
    );
  }
  if (assignment.isError || !assignment.data) {
    return (
      <Stack>
        <Title order={1}>Assignment</Title>
        <Alert color="red" role="alert">
          {`Couldn't load the assignment: ${assignment.error?.message ?? 'not found'}`}
        </Alert>
      </Stack>
    );
  }
  const a = assignment.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={href('course', { courseId: courseId })} size="sm">
        {`← ${a.courseTitle}`}
      </Anchor>
      <Title order={1}>{a.title}</Title>
      <AssignmentFacts assignment={a} />
      <section aria-labelledby="instructions-heading">
        <Title order={2} id="instructions-heading" size="h3" mb="xs">
          Instructions
        </Title>
        {a.instructionsHtml ? (
          <RichTextView html={a.instructionsHtml} />
        ) : (
          <Text c="dimmed">No instructions.</Text>
        )}
        {a.attachments.length > 0 && (
          <Stack gap={4} mt="sm">
            <Text fw={500}>Attachments</Text>
            <List>
              {a.attachments.map((f) => (
                <List.Item key={f.id}>
                  <FileLink file={f} />
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
      </section>
      {a.mine && <LearnerWork assignment={a} />}
      {a.toGrade !== null && <GraderOverview courseId={courseId} assignment={a} />}
    </Stack>
  );
}

function AssignmentFacts({ assignment: a }: { assignment: AssignmentDetail }) {
  const [openedAt] = useState(() => Date.now());
  const overdue = overdueWords(a, openedAt);
  return (
    <Stack gap={4}>
      <Text>
        <Text span fw={500}>
          Due:{' '}
        </Text>
        {a.dueAt ? formatDateTime(a.dueAt) : 'No due date'}
        {overdue && (
          <Badge
            ml="xs"
            color={overdue === 'Overdue' ? 'red' : 'gray'}
            variant="light"
            tt="none"
            component="span"
          >
            {overdue}
          </Badge>
        )}
      </Text>
      <Text>
        <Text span fw={500}>
          Points:{' '}
        </Text>
        {a.points}
      </Text>
      <Text>
        <Text span fw={500}>
          Late work:{' '}
        </Text>
        {latePolicyWords(a.latePolicy)}
      </Text>
      <Text>
        <Text span fw={500}>
          Attempts:{' '}
        </Text>
        {a.maxAttempts === null ? 'Unlimited' : `${a.maxAttempts} allowed`}
        {a.mine ? ` (${a.mine.attemptsUsed} used)` : ''}
      </Text>
    </Stack>
  );
}

// ---------------------------------------------------------------- learner

function allUsedWords(max: number | null): string {
  return max === 1 ? 'You have used your one attempt.' : `You have used all ${max} attempts.`;
}

function LearnerWork({ assignment }: { assignment: AssignmentDetail }) {
  const submissions = useSubmissions(assignment.id);
  // The time the page was opened: what it offers does not change under the learner's hands.
  const [openedAt] = useState(() => Date.now());
  // "Start a new attempt" pressed after this many attempts; handing that one in moves past it.
  const [startedAfter, setStartedAfter] = useState<number | null>(null);
  if (submissions.isLoading || submissions.isError) {
    return (
      <QueryState
        query={submissions}
        label="Loading your work"
        errorTitle="Couldn't load your work"
      />
    );
  }
  const all = submissions.data ?? [];
  const draft = all.find((s) => s.status === 'draft') ?? null;
  const attempts = all
    .filter((s) => s.status === 'submitted')
    .sort((x, y) => y.attempt - x.attempt);
  const latest = attempts[0] ?? null;
  // Past the due date of work that is refused late, the server takes nothing more (no draft, no
  // hand-in): say so instead of offering a form whose every button it would refuse.
  const closed =
    assignment.latePolicy === 'refuse' &&
    assignment.dueAt !== null &&
    openedAt > Date.parse(assignment.dueAt);
  // The server's rule: another attempt while fewer than the limit have been handed in.
  const attemptsLeft =
    assignment.maxAttempts === null ? null : Math.max(0, assignment.maxAttempts - attempts.length);
  const mayStartNew = !closed && attemptsLeft !== 0;
  // A draft is work in progress; without one, the latest hand-in is what there is to show, until
  // the learner starts a new attempt.
  const showForm =
    !closed && (draft !== null || latest === null || startedAfter === attempts.length);
  const shown = showForm ? null : latest;
  const others = shown ? attempts.slice(1) : attempts;
  return (
    <>
      {showForm ? (
        <SubmissionForm
          key={draft?.id ?? `new-${attempts.length}`}
          assignment={assignment}
          draft={draft}
          attemptsUsed={attempts.length}
          {...(draft === null && latest !== null ? { onCancel: () => setStartedAfter(null) } : {})}
        />
      ) : (
        <section aria-labelledby="answer-heading">
          <Stack gap="md">
            <Title order={2} size="h3" id="answer-heading">
              Your answer
            </Title>
            {closed && (
              <Alert color="yellow" title="Closed">
                The due date has passed; this assignment no longer accepts submissions.
              </Alert>
            )}
            {shown && <AttemptCard submission={shown} current />}
            {shown && !closed && (
              <Group gap="sm">
                {mayStartNew ? (
                  <Button variant="default" onClick={() => setStartedAfter(attempts.length)}>
                    Start a new attempt
                  </Button>
                ) : (
                  <Text size="sm">{allUsedWords(assignment.maxAttempts)}</Text>
                )}
                {mayStartNew && attemptsLeft !== null && (
                  <Text size="sm" c="dimmed">
                    {`${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left`}
                  </Text>
                )}
              </Group>
            )}
          </Stack>
        </section>
      )}
      {(!shown || others.length > 0) && (
        <section aria-labelledby="attempts-heading">
          <Title order={2} size="h3" id="attempts-heading" mb="xs">
            {shown ? 'Earlier attempts' : 'Your attempts'}
          </Title>
          {others.length === 0 ? (
            <Text c="dimmed">You have not handed anything in yet.</Text>
          ) : (
            <Stack gap="sm">
              {others.map((s) => (
                <AttemptCard key={s.id} submission={s} />
              ))}
            </Stack>
          )}
        </section>
      )}
    </>
  );
}

/**
 * One handed-in attempt as it was handed in: its number and time, late or not, the text and the
 * files, and the grade once released. `current`: the latest, shown in place of the form, with
 * its status and focused when it appears (the form the learner was in is gone).
 */
function AttemptCard({
  submission: s,
  current = false,
}: {
  submission: Submission;
  current?: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (current) ref.current?.focus();
  }, [current]);
  return (
    <Card
      withBorder
      padding="sm"
      component="article"
      aria-label={`Attempt ${s.attempt}`}
      ref={ref}
      tabIndex={current ? -1 : undefined}
    >
      <Stack gap="xs">
        <Group gap="xs">
          {current && (
            <Badge color={s.grade ? 'green' : 'blue'} variant="light" tt="none">
              {s.grade ? 'Graded' : 'Handed in'}
            </Badge>
          )}
          <Text fw={600}>{`Attempt ${s.attempt}`}</Text>
          <Text size="sm" c="dimmed">{`handed in ${formatDateTime(s.submittedAt)}`}</Text>
          {s.late && (
            <Badge color="red" variant="light">
              Late
            </Badge>
          )}
        </Group>
        {s.textHtml && <RichTextView html={s.textHtml} />}
        {s.files.length > 0 && (
          <List aria-label={`Files of attempt ${s.attempt}`}>
            {s.files.map((f) => (
              <List.Item key={f.id}>
                <FileLink file={f} />
              </List.Item>
            ))}
          </List>
        )}
        {s.grade ? (
          <Stack gap={4}>
            <Text fw={500}>{`Grade: ${s.grade.points} / ${s.grade.maxPoints}`}</Text>
            {s.grade.feedbackHtml && (
              <>
                <Text size="sm" fw={500}>
                  Feedback
                </Text>
                <RichTextView html={s.grade.feedbackHtml} />
              </>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No grade to show yet.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

interface FileItem {
  key: string;
  name: string;
  size: number;
  progress: number;
  fileId: string | null;
  error: string | null;
  abort: AbortController | null;
  /** Uploaded in this form, not yet saved with a draft: removing it gives the upload back. */
  fresh: boolean;
}

function acceptedMimes(assignment: AssignmentDetail): string[] | undefined {
  if (assignment.fileKinds.length === 0) return undefined;
  return assignment.fileKinds.flatMap((k) => [...(FILE_KIND_MIME[k] ?? [])]);
}

function SubmissionForm({
  assignment,
  draft,
  attemptsUsed: used,
  onCancel,
}: {
  assignment: AssignmentDetail;
  draft: Submission | null;
  /** Attempts handed in so far. */
  attemptsUsed: number;
  /** Back to the attempt handed in (a new attempt started, nothing saved yet). */
  onCancel?: () => void;
}) {
  const save = useSaveSubmission(assignment.id);
  const allowsText = assignment.submissionKinds.includes('text');
  const allowsFiles = assignment.submissionKinds.includes('file');
  const [textHtml, setTextHtml] = useState(draft?.textHtml ?? '');
  const [files, setFiles] = useState<FileItem[]>(
    () =>
      draft?.files.map((f) => ({
        key: f.id,
        name: f.name,
        size: f.size,
        progress: 1,
        fileId: f.id,
        error: null,
        abort: null,
        fresh: false,
      })) ?? [],
  );
  const [rejected, setRejected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const counter = useRef(0);
  const attemptsLeft = assignment.maxAttempts === null ? null : assignment.maxAttempts - used;
  const uploading = files.some((f) => f.fileId === null && f.error === null);
  const patchFile = (key: string, patch: Partial<FileItem>) =>
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  function addFiles(dropped: File[]) {
    setRejected([]);
    const room = SUBMISSION_FILES_MAX - files.length;
    const taken = dropped.slice(0, Math.max(0, room));
    if (dropped.length > taken.length) {
      setRejected([`At most ${SUBMISSION_FILES_MAX} files can be handed in.`]);
    }
    for (const file of taken) {
      counter.current += 1;
      const key = `upload-${counter.current}`;
      const abort = new AbortController();
      setFiles((list) => [
        ...list,
        {
          key,
          name: file.name,
          size: file.size,
          progress: 0,
          fileId: null,
          error: null,
          abort,
          fresh: true,
        },
      ]);
      uploadFile(file, {
        signal: abort.signal,
        onProgress: (progress) => patchFile(key, { progress }),
      }).then(
        (stored) => patchFile(key, { fileId: stored.id, progress: 1, abort: null }),
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          patchFile(key, {
            error: error instanceof Error ? error.message : 'The upload failed',
            abort: null,
          });
        },
      );
    }
  }

  function onReject(rejections: FileRejection[]) {
    setRejected(
      rejections.map(({ file, errors }) => {
        const reason = errors[0];
        if (reason?.code === 'file-too-large')
          return `${file.name} is larger than ${formatBytes(assignment.maxFileBytes)}.`;
        if (reason?.code === 'file-invalid-type')
          return `${file.name} is not one of the allowed file types.`;
        return `${file.name}: ${reason?.message ?? 'not accepted'}`;
      }),
    );
  }

  function remove(item: FileItem) {
    item.abort?.abort();
    if (item.fresh && item.fileId) discardUpload(item.fileId);
    setFiles((list) => list.filter((f) => f.key !== item.key));
  }

  const payload = () => ({
    ...(allowsText ? { textHtml } : {}),
    ...(allowsFiles ? { fileIds: files.flatMap((f) => (f.fileId ? [f.fileId] : [])) } : {}),
  });

  function saveDraft() {
    save.mutate(
      { ...payload(), submit: false },
      {
        onSuccess: () => {
          // Saved with the draft: the uploads belong to it now.
          setFiles((list) => list.map((f) => ({ ...f, fresh: false })));
          notifications.show({ color: 'green', title: 'Draft saved', message: assignment.title });
        },
      },
    );
  }

  function handIn() {
    save.mutate(
      { ...payload(), submit: true },
      {
        onSuccess: (s) => {
          setConfirming(false);
          notifications.show({
            color: 'green',
            title: 'Handed in',
            message: s.late
              ? `Attempt ${s.attempt} was handed in after the due date and is marked late.`
              : `Attempt ${s.attempt} was handed in.`,
          });
        },
      },
    );
  }

  return (
    <section aria-labelledby="answer-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="answer-heading">
          Your answer
        </Title>
        {used > 0 && (
          <Text size="sm">{`Attempt ${used + 1}${
            assignment.maxAttempts === null ? '' : ` of ${assignment.maxAttempts}`
          }`}</Text>
        )}
        {draft && (
          <Text size="sm" c="dimmed">{`Draft saved ${formatDateTime(draft.updatedAt)}`}</Text>
        )}
        {allowsText && <RichTextEditor label="Answer" value={textHtml} onChange={setTextHtml} />}
        {allowsFiles && (
          <Stack gap="xs">
            <Text fw={500} size="sm" id="files-label">
              Files
            </Text>
            <Dropzone
              onDrop={addFiles}
              onReject={onReject}
              accept={acceptedMimes(assignment)}
              maxSize={assignment.maxFileBytes}
              aria-labelledby="files-label"
              disabled={files.length >= SUBMISSION_FILES_MAX}
            >
              <Group justify="center" gap="sm" mih={80} style={{ pointerEvents: 'none' }}>
                <IconUpload size={28} aria-hidden />
                <Text size="sm">
                  {`Drop files here or click to choose (up to ${formatBytes(assignment.maxFileBytes)} each, at most ${SUBMISSION_FILES_MAX}).`}
                </Text>
              </Group>
            </Dropzone>
            {rejected.map((message) => (
              <Alert key={message} color="red" role="alert">
                {message}
              </Alert>
            ))}
            {files.length > 0 && (
              <Stack gap={6} component="ul" p={0} style={{ listStyle: 'none' }} aria-label="Files">
                {files.map((f) => (
                  <Group key={f.key} component="li" gap="xs" wrap="nowrap">
                    <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                      <Text size="sm" truncate>{`${f.name} (${formatBytes(f.size)})`}</Text>
                      {f.fileId === null && f.error === null && (
                        <Progress
                          value={Math.round(f.progress * 100)}
                          aria-label={`Uploading ${f.name}`}
                        />
                      )}
                      {f.error && (
                        <Text size="sm" c="red.8">
                          {`Upload failed: ${f.error}`}
                        </Text>
                      )}
                    </Stack>
                    <ActionIcon
                      variant="subtle"
                      color="red.8"
                      aria-label={`Remove ${f.name}`}
                      onClick={() => remove(f)}
                    >
                      <IconX size={18} aria-hidden />
                    </ActionIcon>
                  </Group>
                ))}
              </Stack>
            )}
          </Stack>
        )}
        {save.isError && !confirming && (
          <Alert color="red" role="alert">
            {save.error.message}
          </Alert>
        )}
        {attemptsLeft !== null && attemptsLeft <= 0 && (
          <Alert color="yellow">{allUsedWords(assignment.maxAttempts)}</Alert>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            onClick={saveDraft}
            loading={save.isPending && !confirming}
            disabled={uploading}
          >
            Save draft
          </Button>
          <Button
            onClick={() => {
              save.reset();
              setConfirming(true);
            }}
            disabled={uploading || (attemptsLeft !== null && attemptsLeft <= 0)}
          >
            Submit
          </Button>
          {onCancel && (
            <Button variant="subtle" onClick={onCancel} disabled={save.isPending}>
              Cancel
            </Button>
          )}
        </Group>
        {uploading && (
          <Text size="sm" c="dimmed">
            Wait for the uploads to finish before saving.
          </Text>
        )}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title="Hand in your work?"
        confirmLabel="Hand in"
        busy={save.isPending}
        error={save.error?.message ?? null}
        onClose={() => setConfirming(false)}
        onConfirm={handIn}
      >
        {`This hands in attempt ${used + 1}${
          attemptsLeft !== null ? ` of ${assignment.maxAttempts}` : ''
        }. You cannot change it afterwards.`}
      </ConfirmModal>
    </section>
  );
}

// ---------------------------------------------------------------- graders

function GraderOverview({
  courseId,
  assignment,
}: {
  courseId: string;
  assignment: AssignmentDetail;
}) {
  const submissions = useSubmissions(assignment.id, { latest: true });

  return (
    <section aria-labelledby="submissions-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="submissions-heading">
          Submissions
        </Title>
        <GradeRelease assignment={assignment} />
        <QueryState
          query={submissions}
          label="Loading the submissions"
          errorTitle="Couldn't load the submissions"
        />
        {submissions.data && submissions.data.length === 0 && (
          <Text>Nobody has handed anything in yet.</Text>
        )}
        {submissions.data && submissions.data.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Submissions" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Learner</Table.Th>
                  <Table.Th>Attempt</Table.Th>
                  <Table.Th>Submitted at</Table.Th>
                  <Table.Th>Grade</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Action</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {submissions.data.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.userName}</Table.Td>
                    <Table.Td>{s.attempt}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {formatDateTime(s.submittedAt)}
                        {s.late && (
                          <Badge color="red" variant="light">
                            Late
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {s.grade ? `${s.grade.points} / ${s.grade.maxPoints}` : 'Not graded'}
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={href('grader', {
                          courseId,
                          assignmentId: assignment.id,
                          submission: s.id,
                        })}
                        aria-label={`Grade ${s.userName}`}
                      >
                        Grade
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </section>
  );
}
