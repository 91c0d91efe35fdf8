/**
 * Whether learners can see an assignment's grades, where graders work (the assignment's
 * submissions and the grader page): "Grades released" or "N grades not released", what that means
 * for the grade just saved, and — for those the server lets release them (`canReleaseGrades`) —
 * releasing or hiding them. docs/classroom.md, "Grades".
 */
import type { AssignmentDetail, Grade } from '@learning-hub/core';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isStaleEdit } from '../../../lib/api-client';
import { useUpdateAssignment } from '../api/assignments-api';

/** A release refused as stale: the assignment was reloaded (useUpdateAssignment) and shows now. */
const RELEASE_STALE =
  'Someone else changed this assignment since you opened it. It is shown as it is now: release or hide again if you still want to.';

/** "Grades released", "1 grade not released", "Grades not released" (none given yet). */
export function releaseStateWords(a: {
  gradesReleased: boolean;
  unreleasedGrades: number | null;
}): string {
  if (a.gradesReleased) return 'Grades released';
  const n = a.unreleasedGrades ?? 0;
  if (n === 0) return 'Grades not released';
  return `${n} ${n === 1 ? 'grade' : 'grades'} not released`;
}

function explanation(assignment: AssignmentDetail, saved: Grade | null): string {
  if (assignment.gradesReleased) {
    return saved
      ? 'Learners can see this grade.'
      : 'Learners can see their grades for this assignment.';
  }
  const when = assignment.releaseOnSave
    ? ' This assignment releases them when the next grade is saved.'
    : '';
  return saved
    ? `Learners cannot see this grade until grades are released.${when}`
    : `Learners cannot see the grades of this assignment until they are released.${when}`;
}

export function GradeRelease({
  assignment,
  saved = null,
}: {
  assignment: AssignmentDetail;
  /** The grade just saved on this page, if any: the notice speaks of it. */
  saved?: Grade | null;
}) {
  const update = useUpdateAssignment();
  const released = assignment.gradesReleased;

  function toggle() {
    update.mutate(
      {
        assignmentId: assignment.id,
        input: { gradesReleased: !released, revision: assignment.revision },
      },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            title: released ? 'Grades hidden' : 'Grades released',
            message: assignment.title,
          }),
      },
    );
  }

  return (
    <Alert
      role="status"
      variant="light"
      color={released ? 'green' : 'yellow'}
      title={releaseStateWords(assignment)}
    >
      <Stack gap="xs">
        <Text size="sm">{explanation(assignment, saved)}</Text>
        {!assignment.canReleaseGrades && !released && (
          <Text size="sm">Those who can edit this assignment release its grades.</Text>
        )}
        {update.isError && (
          <Text size="sm" c="red.8" role="alert">
            {isStaleEdit(update.error) ? RELEASE_STALE : update.error.message}
          </Text>
        )}
        {assignment.canReleaseGrades && (
          <Group>
            <Button
              size="sm"
              variant={released ? 'default' : 'filled'}
              loading={update.isPending}
              onClick={toggle}
            >
              {released ? 'Hide grades' : 'Release grades'}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
