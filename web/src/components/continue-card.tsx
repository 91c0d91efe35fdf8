/**
 * "Continue where you left off" (GET /api/me/learning): the next unfinished lesson of the course
 * the learner was last active in, or, when they have finished it all, that the course is
 * complete; with nothing under way, the first lesson of a course not started yet ("Start your
 * course"). The start page and the learning page show it.
 */
import type { LearningOverview } from '@learning-hub/core';
import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { href } from '../lib/links';

export interface ContinueCardProps {
  overview: Pick<LearningOverview, 'continueLesson' | 'courseComplete'>;
  /** The id of the card's heading (unique in the page). */
  id: string;
}

/** Nothing when there is neither a lesson to continue nor a course just completed. */
export function ContinueCard({ overview, id }: ContinueCardProps) {
  const { continueLesson: next, courseComplete: done } = overview;
  if (next) {
    // A course not started yet (nothing viewed) is started, not continued.
    const starting = next.viewedAt === null;
    return (
      <Paper withBorder p="md" component="section" aria-labelledby={id}>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={2} size="h4" id={id}>
              {starting ? 'Start your course' : 'Continue where you left off'}
            </Title>
            <Text fw={600}>{next.lessonTitle}</Text>
            <Text size="sm" c="dimmed">
              {next.courseTitle}
            </Text>
          </Stack>
          <Button
            component={Link}
            to={href('lesson', { courseId: next.courseId, lessonId: next.lessonId })}
            rightSection={<IconArrowRight size={16} aria-hidden="true" />}
            aria-label={`${starting ? 'Start' : 'Continue'} ${next.lessonTitle}`}
          >
            {starting ? 'Start' : 'Continue'}
          </Button>
        </Group>
      </Paper>
    );
  }
  if (done) {
    return (
      <Paper withBorder p="md" component="section" aria-labelledby={id}>
        <Group wrap="nowrap" gap="sm" align="flex-start">
          <ThemeIcon color="green" variant="light" radius="xl" aria-hidden="true">
            <IconCheck size={18} />
          </ThemeIcon>
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2} size="h4" id={id}>
              {`You have completed ${done.courseTitle}`}
            </Title>
            <Text size="sm">Every lesson of the course is done.</Text>
            <Group gap="md" wrap="wrap">
              <Anchor component={Link} to={href('course', { courseId: done.courseId })} size="sm">
                Open the course
              </Anchor>
              <Anchor component={Link} to="/classroom" size="sm">
                Find another course
              </Anchor>
            </Group>
          </Stack>
        </Group>
      </Paper>
    );
  }
  return null;
}
