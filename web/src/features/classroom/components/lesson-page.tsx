import type { CourseDetail, LessonOutline } from '@learning-hub/core';
import {
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Drawer,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft, IconArrowRight, IconCheck, IconListDetails } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';

import { RichTextView } from '../../../components/rich-text/rich-text-view';

import { formatDuration } from '../course-format';
import { useCourse, useLesson, useSetLessonProgress } from '../api/courses-api';
import { OutlineNav } from './course-outline';
import { QueryState, ErrorAlert } from '../../../components/query-state';
import { href } from '../../../lib/links';

function findLesson(course: CourseDetail | undefined, lessonId: string | null) {
  if (!course || !lessonId) return null;
  for (const section of course.sections) {
    const found = section.lessons.find((l) => l.id === lessonId);
    if (found) return found;
  }
  return null;
}

function NeighbourLink({
  courseId,
  lesson,
  fallbackId,
  direction,
}: {
  courseId: string;
  lesson: LessonOutline | null;
  fallbackId: string | null;
  direction: 'previous' | 'next';
}) {
  const id = lesson?.id ?? fallbackId;
  if (!id) return <span />;
  const previous = direction === 'previous';
  return (
    <Button
      component={Link}
      to={href('lesson', { courseId, lessonId: id })}
      variant="default"
      leftSection={previous ? <IconArrowLeft size={16} aria-hidden="true" /> : undefined}
      rightSection={previous ? undefined : <IconArrowRight size={16} aria-hidden="true" />}
      styles={{ label: { whiteSpace: 'normal', textAlign: previous ? 'left' : 'right' } }}
      h="auto"
      py={6}
      aria-label={`${previous ? 'Previous' : 'Next'} lesson${lesson ? `: ${lesson.title}` : ''}`}
    >
      <Stack gap={0} align={previous ? 'flex-start' : 'flex-end'}>
        <Text size="xs" c="dimmed">
          {previous ? 'Previous' : 'Next'}
        </Text>
        {lesson && <Text size="sm">{lesson.title}</Text>}
      </Stack>
    </Button>
  );
}

/** /classroom/:courseId/lessons/:lessonId: one lesson to read, its place in the outline, progress. */
export function LessonPage() {
  const { courseId = '', lessonId = '' } = useParams();
  const course = useCourse(courseId);
  const lesson = useLesson(courseId, lessonId);
  const progress = useSetLessonProgress(courseId);
  const [outlineOpen, outline] = useDisclosure(false);

  if (lesson.isPending || lesson.isError) {
    return (
      <QueryState
        query={lesson}
        label="Loading the lesson"
        size="page"
        denied={{ page: 'this lesson', to: href('course', { courseId }) }}
        heading="Lesson"
        back={{ to: href('course', { courseId }), label: 'Back to the course' }}
      />
    );
  }
  const data = lesson.data;
  const detail = course.data;
  const enrolled = detail?.viewer.enrolled ?? false;
  const previous = findLesson(detail, data.previousLessonId);
  const next = findLesson(detail, data.nextLessonId);
  const duration = formatDuration(data.durationMinutes);

  return (
    <Stack gap="md">
      <Breadcrumbs
        separatorMargin={6}
        // Long course and lesson titles wrap instead of widening the page on a phone.
        styles={{
          root: { flexWrap: 'wrap' },
          breadcrumb: { whiteSpace: 'normal', overflowWrap: 'anywhere', lineHeight: 1.4 },
        }}
      >
        <Anchor component={Link} to="/classroom" size="sm">
          Courses
        </Anchor>
        <Anchor component={Link} to={href('course', { courseId })} size="sm">
          {detail?.title ?? 'Course'}
        </Anchor>
        <Text size="sm" aria-current="page">
          {data.title}
        </Text>
      </Breadcrumbs>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Stack gap="md" component="article" aria-labelledby="lesson-title">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={2}>
                <Title order={1} id="lesson-title">
                  {data.title}
                </Title>
                {duration && (
                  <Text size="sm" c="dimmed">
                    {duration}
                  </Text>
                )}
              </Stack>
              {detail && (
                <Button
                  hiddenFrom="md"
                  variant="default"
                  style={{ flexShrink: 0 }}
                  onClick={outline.open}
                  leftSection={<IconListDetails size={16} aria-hidden="true" />}
                >
                  Outline
                </Button>
              )}
            </Group>
            {data.bodyHtml ? (
              <RichTextView html={data.bodyHtml} />
            ) : (
              <Text c="dimmed">This lesson has no content yet.</Text>
            )}
            {enrolled && (
              <Group gap="sm">
                <Button
                  variant={data.completed ? 'default' : 'filled'}
                  leftSection={
                    data.completed ? undefined : <IconCheck size={16} aria-hidden="true" />
                  }
                  loading={progress.isPending}
                  onClick={() => progress.mutate({ lessonId: data.id, completed: !data.completed })}
                >
                  {data.completed ? 'Mark not complete' : 'Mark complete'}
                </Button>
                {data.completed && (
                  <Text size="sm" c="var(--mantine-color-green-light-color)" role="status">
                    Completed
                  </Text>
                )}
              </Group>
            )}
            {progress.isError && <ErrorAlert error={progress.error} />}
            <Group
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              component="nav"
              aria-label="Lessons"
            >
              <NeighbourLink
                courseId={courseId}
                lesson={previous}
                fallbackId={data.previousLessonId}
                direction="previous"
              />
              <NeighbourLink
                courseId={courseId}
                lesson={next}
                fallbackId={data.nextLessonId}
                direction="next"
              />
            </Group>
          </Stack>
        </Grid.Col>
        {detail && (
          <Grid.Col span={{ md: 4, lg: 3 }} visibleFrom="md">
            <Paper
              withBorder
              p="sm"
              pos="sticky"
              top="calc(var(--app-shell-header-offset, 0rem) + 1rem)"
            >
              <OutlineNav course={detail} currentLessonId={data.id} />
            </Paper>
          </Grid.Col>
        )}
      </Grid>
      {detail && (
        <Drawer
          opened={outlineOpen}
          onClose={outline.close}
          title="Course outline"
          position="right"
          size="xs"
          closeButtonProps={{ 'aria-label': 'Close the outline' }}
        >
          <Box>
            <OutlineNav course={detail} currentLessonId={data.id} onNavigate={outline.close} />
          </Box>
        </Drawer>
      )}
    </Stack>
  );
}
