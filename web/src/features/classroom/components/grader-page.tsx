/**
 * Grading one assignment (`/classroom/:courseId/assignments/:assignmentId/grade?submission=<id>`,
 * docs/classroom.md): one learner's attempt at a time — previous/next and a learner select — with
 * the text answer and the files shown inline, the points and feedback form, and the grade's
 * history.
 */
import {
  GradeSetSchema,
  type AssignmentDetail,
  type Grade,
  type Submission,
} from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Loader,
  NumberInput,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { RichTextView } from '../../../components/rich-text/rich-text-view';
import {
  GRADE_HISTORY_PAGE_SIZE,
  useAssignment,
  useGradeHistory,
  useGradeSubmission,
  useSubmissions,
} from '../api/assignments-api';
import { formatDateTime } from '../../../lib/format';
import { InlineFile } from './assignment-page';

import { AccessDeniedRedirect } from '../../../components/access-denied-redirect';
import { forbiddenReason } from '../../../lib/access-denial';
import { GradeRelease } from './grade-release';
import { fieldErrors, firstError } from '../../../lib/form-errors';
import { href } from '../../../lib/links';
import { QueryState, ErrorAlert } from '../../../components/query-state';
import { FormStack } from '../../../components/form-modal';
import { Pager } from '../../../components/pager';

interface Learner {
  userId: string;
  name: string;
  /** Newest first. */
  attempts: Submission[];
}

function learnersOf(submissions: readonly Submission[]): Learner[] {
  const byUser = new Map<string, Learner>();
  for (const s of submissions) {
    if (s.status !== 'submitted') continue;
    const learner = byUser.get(s.userId) ?? { userId: s.userId, name: s.userName, attempts: [] };
    learner.attempts.push(s);
    byUser.set(s.userId, learner);
  }
  const learners = [...byUser.values()];
  for (const l of learners) l.attempts.sort((a, b) => b.attempt - a.attempt);
  return learners.sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
}

export function GraderPage() {
  const { courseId = '', assignmentId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const assignment = useAssignment(assignmentId);
  const submissions = useSubmissions(assignmentId, { latest: false });

  const title = assignment.data ? `Grade: ${assignment.data.title}` : 'Grade';
  const back = (
    <Anchor component={Link} to={href('assignment', { courseId, assignmentId })} size="sm">
      {`← ${assignment.data?.title ?? 'Assignment'}`}
    </Anchor>
  );
  if (assignment.isLoading || submissions.isLoading) {
    return <Loader aria-label="Loading the submissions" />;
  }
  const refused = forbiddenReason(assignment.error) ?? forbiddenReason(submissions.error);
  if (refused) {
    // Back to the assignment when only its submissions are refused, else to the course.
    const to = assignment.data
      ? href('assignment', { courseId, assignmentId })
      : href('course', { courseId });
    return <AccessDeniedRedirect page="the grading of this assignment" reason={refused} to={to} />;
  }
  const error = assignment.error ?? submissions.error;
  if (error || !assignment.data || !submissions.data) {
    return (
      <Stack>
        {back}
        <Title order={1}>{title}</Title>
        <Alert color="red" role="alert">
          {`Couldn't load the submissions: ${error?.message ?? 'not found'}`}
        </Alert>
      </Stack>
    );
  }

  const learners = learnersOf(submissions.data);
  const wanted = params.get('submission');
  const current =
    submissions.data.find((s) => s.id === wanted && s.status === 'submitted') ??
    learners[0]?.attempts[0] ??
    null;
  const index = current ? learners.findIndex((l) => l.userId === current.userId) : -1;
  const learner = index >= 0 ? learners[index]! : null;
  const go = (submissionId: string) => setParams({ submission: submissionId });

  return (
    <Stack gap="lg">
      {back}
      <Title order={1}>{title}</Title>
      {!current || !learner ? (
        <Text>Nobody has handed anything in yet.</Text>
      ) : (
        <>
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Button
              variant="default"
              disabled={index <= 0}
              onClick={() => go(learners[index - 1]!.attempts[0]!.id)}
            >
              Previous learner
            </Button>
            <Select
              label="Learner"
              data={learners.map((l) => ({ value: l.userId, label: l.name }))}
              value={learner.userId}
              allowDeselect={false}
              searchable
              onChange={(userId) => {
                const next = learners.find((l) => l.userId === userId);
                if (next) go(next.attempts[0]!.id);
              }}
              style={{ minWidth: 200 }}
            />
            <Button
              variant="default"
              disabled={index >= learners.length - 1}
              onClick={() => go(learners[index + 1]!.attempts[0]!.id)}
            >
              Next learner
            </Button>
            <Text size="sm" c="dimmed">{`${index + 1} of ${learners.length}`}</Text>
          </Group>
          {learner.attempts.length > 1 && (
            <Select
              label="Attempt"
              data={learner.attempts.map((s) => ({
                value: s.id,
                label: `Attempt ${s.attempt} (${formatDateTime(s.submittedAt)})`,
              }))}
              value={current.id}
              allowDeselect={false}
              onChange={(id) => id && go(id)}
              maw={360}
            />
          )}
          <SubmissionView submission={current} />
          <GradeForm key={current.id} assignment={assignment.data} submission={current} />
          <GradeHistoryList assignmentId={assignmentId} userId={current.userId} />
        </>
      )}
    </Stack>
  );
}

function SubmissionView({ submission: s }: { submission: Submission }) {
  return (
    <section aria-labelledby="answer-heading">
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={2} size="h3" id="answer-heading">
            {`${s.userName} — attempt ${s.attempt}`}
          </Title>
          {s.late && (
            <Badge color="red" variant="light">
              Late
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">{`Handed in ${formatDateTime(s.submittedAt)}`}</Text>
        {s.textHtml ? (
          <Card withBorder padding="sm">
            <RichTextView html={s.textHtml} />
          </Card>
        ) : (
          <Text c="dimmed">No text answer.</Text>
        )}
        {s.files.length > 0 && (
          <Stack gap="md">
            {s.files.map((f) => (
              <InlineFile key={f.id} file={f} />
            ))}
          </Stack>
        )}
      </Stack>
    </section>
  );
}

function GradeForm({
  assignment,
  submission,
}: {
  assignment: AssignmentDetail;
  submission: Submission;
}) {
  const grade = useGradeSubmission();
  const [points, setPoints] = useState<number | ''>(submission.grade?.points ?? '');
  const [feedbackHtml, setFeedbackHtml] = useState(submission.grade?.feedbackHtml ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Grade | null>(null);

  function submit() {
    if (points === '') {
      setError('Enter the points');
      return;
    }
    if (points > assignment.points) {
      setError(`The points cannot be more than ${assignment.points}`);
      return;
    }
    const parsed = GradeSetSchema.safeParse({ points, feedbackHtml });
    if (!parsed.success) {
      setError(firstError(fieldErrors(parsed.error)) ?? 'Check the grade');
      return;
    }
    setError(null);
    grade.mutate(
      { submissionId: submission.id, input: parsed.data },
      {
        onSuccess: (g) => {
          setSaved(g);
          notifications.show({
            color: 'green',
            title: 'Grade saved',
            message: `${submission.userName}: ${g.points} / ${g.maxPoints}`,
          });
        },
      },
    );
  }

  return (
    <section aria-labelledby="grade-heading">
      <FormStack onSubmit={submit}>
        <Title order={2} size="h3" id="grade-heading">
          Grade
        </Title>
        <NumberInput
          label={`Points (out of ${assignment.points})`}
          required
          min={0}
          max={assignment.points}
          allowNegative={false}
          decimalScale={2}
          value={points}
          error={error}
          onChange={(v) => setPoints(typeof v === 'number' ? v : '')}
          maw={240}
        />
        <RichTextEditor label="Feedback" value={feedbackHtml} onChange={setFeedbackHtml} />
        {grade.isError && <ErrorAlert error={grade.error} />}
        <Group>
          <Button type="submit" loading={grade.isPending}>
            Save grade
          </Button>
        </Group>
        <GradeRelease assignment={assignment} saved={saved} />
      </FormStack>
    </section>
  );
}

function GradeHistoryList({ assignmentId, userId }: { assignmentId: string; userId: string }) {
  const [page, setPage] = useState(1);
  const history = useGradeHistory(assignmentId, userId, page);
  const grades = history.data?.items;
  return (
    <section aria-labelledby="history-heading">
      <Title order={2} size="h3" id="history-heading" mb="xs">
        Grade history
      </Title>
      <QueryState
        query={history}
        label="Loading the grade history"
        errorTitle="Couldn't load the history"
      />
      {grades && grades.length === 0 && <Text c="dimmed">Not graded yet.</Text>}
      {grades && grades.length > 0 && (
        <List aria-label="Grade history">
          {grades.map((g) => (
            <List.Item key={g.revision}>
              {`${g.points} / ${g.maxPoints} by ${g.gradedByName}, ${formatDateTime(g.gradedAt)}${
                g.override ? ' (gradebook override)' : ''
              }`}
            </List.Item>
          ))}
        </List>
      )}
      {history.data && (
        <Pager
          label="Grade history pages"
          page={page}
          total={history.data.total}
          pageSize={GRADE_HISTORY_PAGE_SIZE}
          onChange={setPage}
        />
      )}
    </section>
  );
}
