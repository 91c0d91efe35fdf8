/**
 * The start page of someone who teaches: what waits for a grade, the latest hand-ins, the courses
 * they teach and what is due soon in them. Everything comes from the server, which lists only the
 * courses the viewer teaches and, for grading, may grade (GET /api/me/learning).
 */
import type { LearningOverview } from '@learning-hub/core';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { COURSE_STATE_COLORS, COURSE_STATE_LABELS } from '../../classroom/course-format';
import { formatDateTime } from '../../../lib/format';
import { count, EmptyText, HomeSection, PlainList } from './home-section';
import { href } from '../../../lib/links';

function ToGrade({ items }: { items: LearningOverview['toGrade'] }) {
  if (items.length === 0) return <EmptyText>Nothing waits for a grade.</EmptyText>;
  return (
    <PlainList>
      {items.map((item) => (
        <li key={item.assignmentId}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor
                component={Link}
                to={href('grader', {
                  courseId: item.courseId,
                  assignmentId: item.assignmentId,
                  submission: item.firstSubmissionId,
                })}
              >
                {item.assignmentTitle}
              </Anchor>
              <Text size="xs" c="dimmed">
                {item.courseTitle}
              </Text>
            </Stack>
            <Badge variant="light" color="orange" tt="none" style={{ flexShrink: 0 }}>
              {`${item.count} waiting`}
            </Badge>
          </Group>
        </li>
      ))}
    </PlainList>
  );
}

function RecentHandIns({ items }: { items: LearningOverview['recentHandIns'] }) {
  if (items.length === 0) return <EmptyText>Nobody has handed in work yet.</EmptyText>;
  return (
    <PlainList>
      {items.map((h) => (
        <li key={h.submissionId}>
          <Stack gap={2}>
            <Group justify="space-between" wrap="wrap" gap={4} align="baseline">
              <Anchor
                component={Link}
                to={href('grader', {
                  courseId: h.courseId,
                  assignmentId: h.assignmentId,
                  submission: h.submissionId,
                })}
                style={{ minWidth: 0 }}
              >
                {`${h.learnerName}: ${h.assignmentTitle}`}
              </Anchor>
              <Text size="xs" c="dimmed">
                {formatDateTime(h.submittedAt)}
              </Text>
            </Group>
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                {h.courseTitle}
              </Text>
              {h.attempt > 1 && (
                <Badge size="sm" variant="light" color="gray" tt="none">
                  {`Attempt ${h.attempt}`}
                </Badge>
              )}
              {h.late && (
                <Badge size="sm" variant="light" color="red" tt="none">
                  Late
                </Badge>
              )}
              {h.graded && (
                <Badge size="sm" variant="light" color="green" tt="none">
                  Graded
                </Badge>
              )}
            </Group>
          </Stack>
        </li>
      ))}
    </PlainList>
  );
}

function TaughtCourses({ courses }: { courses: LearningOverview['teaching'] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 3 }}
      component="ul"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {courses.map((c) => (
        <li key={c.courseId}>
          <Paper withBorder p="md" h="100%">
            <Stack gap={4}>
              <Anchor component={Link} to={href('course', { courseId: c.courseId })} fw={600}>
                {c.courseTitle}
              </Anchor>
              <Group gap={6} wrap="wrap">
                <Text size="xs" c="dimmed">
                  {c.code}
                </Text>
                {c.state !== 'published' && (
                  <Badge size="sm" variant="light" tt="none" color={COURSE_STATE_COLORS[c.state]}>
                    {COURSE_STATE_LABELS[c.state]}
                  </Badge>
                )}
              </Group>
              <Group gap="md" wrap="wrap">
                <Text size="sm">{count(c.learners, 'learner', 'learners')}</Text>
                {c.toGrade > 0 ? (
                  <Anchor
                    component={Link}
                    to={href('course', { courseId: c.courseId, tab: 'assignments' })}
                    size="sm"
                  >
                    {`${c.toGrade} to grade`}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    Nothing to grade
                  </Text>
                )}
              </Group>
            </Stack>
          </Paper>
        </li>
      ))}
    </SimpleGrid>
  );
}

function TeachingDue({ items }: { items: LearningOverview['teachingDue'] }) {
  if (items.length === 0) return <EmptyText>Nothing is due in the next two weeks.</EmptyText>;
  return (
    <PlainList>
      {items.map((d) => (
        <li key={d.assignmentId}>
          <Group justify="space-between" wrap="wrap" gap={4} align="flex-start">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor
                component={Link}
                to={href('assignment', { courseId: d.courseId, assignmentId: d.assignmentId })}
              >
                {d.assignmentTitle}
              </Anchor>
              <Text size="xs" c="dimmed">
                {d.courseTitle}
              </Text>
            </Stack>
            <Stack gap={0} ta={{ base: 'left', sm: 'right' }}>
              <Text size="sm">{`Due ${formatDateTime(d.dueAt)}`}</Text>
              <Text size="xs" c="dimmed">
                {`${d.handedIn} of ${count(d.learners, 'learner', 'learners')} handed in`}
              </Text>
            </Stack>
          </Group>
        </li>
      ))}
    </PlainList>
  );
}

export function TeachingSections({ overview }: { overview: LearningOverview }) {
  const waiting = overview.toGrade.reduce((sum, item) => sum + item.count, 0);
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <HomeSection framed id="home-to-grade" title="To grade">
          {waiting > 0 && (
            <Text size="sm" c="dimmed">
              {`${count(waiting, 'hand-in waits', 'hand-ins wait')} for a grade.`}
            </Text>
          )}
          <ToGrade items={overview.toGrade} />
        </HomeSection>
        <HomeSection framed id="home-hand-ins" title="Recent hand-ins">
          <RecentHandIns items={overview.recentHandIns} />
        </HomeSection>
      </SimpleGrid>
      <HomeSection id="home-teaching" title="Courses you teach">
        <TaughtCourses courses={overview.teaching} />
      </HomeSection>
      <HomeSection framed id="home-teaching-due" title="Upcoming due dates">
        <TeachingDue items={overview.teachingDue} />
      </HomeSection>
    </>
  );
}
