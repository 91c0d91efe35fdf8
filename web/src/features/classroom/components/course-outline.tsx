import type { CourseDetail } from '@learning-hub/core';
import { Anchor, Group, NavLink, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDuration } from '../course-format';
import { href } from '../../../lib/links';

function CompletionIcon({ completed }: { completed: boolean }) {
  return completed ? (
    <ThemeIcon size="sm" radius="xl" color="green" aria-label="Completed" role="img">
      <IconCheck size={12} aria-hidden="true" />
    </ThemeIcon>
  ) : (
    <ThemeIcon size="sm" radius="xl" variant="default" aria-label="Not completed" role="img">
      <IconCircle size={10} aria-hidden="true" />
    </ThemeIcon>
  );
}

/**
 * The sections and their lessons: links for those who may read them, ticks for what the viewer
 * completed, durations.
 */
export function CourseOutline({ course }: { course: CourseDetail }) {
  const canRead = course.viewer.canLearn;
  const showProgress = course.viewer.enrolled;
  if (course.sections.length === 0) {
    return <Text c="dimmed">This course has no lessons yet.</Text>;
  }
  return (
    <Stack gap="md">
      {!canRead && (
        <Text size="sm" c="dimmed">
          Enrol to read the lessons.
        </Text>
      )}
      {course.sections.map((section, index) => (
        <Paper key={section.id} withBorder p="md" component="section">
          <Title order={3} size="h4" mb="xs">
            {`${index + 1}. ${section.title}`}
          </Title>
          {section.lessons.length === 0 ? (
            <Text size="sm" c="dimmed">
              No lessons in this section yet.
            </Text>
          ) : (
            <Stack component="ol" gap={6} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {section.lessons.map((lesson) => (
                <Group component="li" key={lesson.id} gap="sm" wrap="nowrap" align="flex-start">
                  {showProgress && <CompletionIcon completed={lesson.completed} />}
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    {canRead ? (
                      <Anchor
                        component={Link}
                        to={href('lesson', { courseId: course.id, lessonId: lesson.id })}
                      >
                        {lesson.title}
                      </Anchor>
                    ) : (
                      <Text>{lesson.title}</Text>
                    )}
                  </Stack>
                  {lesson.durationMinutes !== null && (
                    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatDuration(lesson.durationMinutes)}
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

/** The outline as a side navigation of the lesson reader, the current lesson marked. */
export function OutlineNav({
  course,
  currentLessonId,
  onNavigate,
}: {
  course: CourseDetail;
  currentLessonId: string;
  onNavigate?(): void;
}) {
  return (
    <nav aria-label="Course outline">
      <Stack gap="sm">
        {course.sections.map((section, index) => (
          <Stack key={section.id} gap={2}>
            <Text size="sm" fw={600}>
              {`${index + 1}. ${section.title}`}
            </Text>
            {section.lessons.map((lesson) => {
              const current = lesson.id === currentLessonId;
              return (
                <NavLink
                  key={lesson.id}
                  component={Link}
                  to={href('lesson', { courseId: course.id, lessonId: lesson.id })}
                  label={lesson.title}
                  active={current}
                  aria-current={current ? 'page' : undefined}
                  onClick={onNavigate}
                  leftSection={
                    course.viewer.enrolled ? (
                      <CompletionIcon completed={lesson.completed} />
                    ) : undefined
                  }
                  description={formatDuration(lesson.durationMinutes) || undefined}
                />
              );
            })}
          </Stack>
        ))}
      </Stack>
    </nav>
  );
}
