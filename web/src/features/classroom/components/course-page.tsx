import type { CourseDetail } from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Grid,
  Group,
  Image,
  Paper,
  Progress,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowRight, IconCircleCheck, IconEdit } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { SideScroll } from '../../../components/side-scroll';

import { RichTextView } from '../../../components/rich-text/rich-text-view';

import { useCourse } from '../api/courses-api';
import {
  COURSE_STATE_COLORS,
  COURSE_STATE_LABELS,
  formatDate,
  progressText,
} from '../course-format';
import { CourseAssignments } from './course-assignments';
import { CourseGradebook } from './course-gradebook';
import { CourseOutline } from './course-outline';
import { EnrolControls } from './enrol-controls';
import { ParticipantsTab } from './participants-tab';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

// The course's announcements: the announcements' own chunk (docs/announcements.md).
const ScopedAnnouncements = lazy(() =>
  import('../../announcements/components/scoped-announcements').then((m) => ({
    default: m.ScopedAnnouncements,
  })),
);

export type CourseTab = 'outline' | 'assignments' | 'grades' | 'participants';

/** The tabs this viewer has, in order (the server decides the flags). */
export function courseTabs(course: CourseDetail): { value: CourseTab; label: string }[] {
  const { viewer } = course;
  const tabs: { value: CourseTab; label: string }[] = [{ value: 'outline', label: 'Outline' }];
  if (viewer.canLearn) tabs.push({ value: 'assignments', label: 'Assignments' });
  if (viewer.canViewAllGrades || viewer.enrolled) tabs.push({ value: 'grades', label: 'Grades' });
  if (viewer.canViewParticipants) tabs.push({ value: 'participants', label: 'Participants' });
  return tabs;
}

function datesText(course: CourseDetail): string | null {
  if (course.startsAt && course.endsAt) {
    return `${formatDate(course.startsAt)} – ${formatDate(course.endsAt)}`;
  }
  if (course.startsAt) return `Starts ${formatDate(course.startsAt)}`;
  if (course.endsAt) return `Ends ${formatDate(course.endsAt)}`;
  return null;
}

function capacityText(course: CourseDetail): string {
  if (course.capacity === null) {
    return course.enrolledCount === 1 ? '1 learner' : `${course.enrolledCount} learners`;
  }
  return `${course.enrolledCount} of ${course.capacity} places taken`;
}

function CourseHeader({ course }: { course: CourseDetail }) {
  const { viewer } = course;
  const dates = datesText(course);
  // The server's next unfinished lesson; none left for a learner who has done every lesson.
  const resumeId = course.nextLessonId;
  const complete = viewer.enrolled && resumeId === null && (course.progress?.totalLessons ?? 0) > 0;
  return (
    <Grid gap="lg">
      {course.coverUrl && (
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Image src={course.coverUrl} alt="" radius="md" fit="cover" mah={220} />
        </Grid.Col>
      )}
      <Grid.Col span={{ base: 12, sm: course.coverUrl ? 8 : 12 }}>
        <Stack gap="sm">
          <Group gap={6} wrap="wrap">
            <Badge variant="light" tt="none">
              {course.code}
            </Badge>
            <Badge variant="light" tt="none" color={COURSE_STATE_COLORS[course.state]}>
              {COURSE_STATE_LABELS[course.state]}
            </Badge>
            {viewer.enrolled && (
              <Badge variant="light" tt="none" color="green">
                Enrolled
              </Badge>
            )}
          </Group>
          <Title order={1}>{course.title}</Title>
          <Group gap="lg" wrap="wrap">
            {course.departmentName && (
              <Text size="sm" c="dimmed">
                {course.departmentName}
              </Text>
            )}
            {dates && (
              <Text size="sm" c="dimmed">
                {dates}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {capacityText(course)}
            </Text>
          </Group>
          {course.state === 'archived' && (
            <Alert color="gray" p="xs">
              This course is archived: it can be read but not changed.
            </Alert>
          )}
          {course.progress && (
            <Stack gap={4} maw={420}>
              <Progress value={course.progress.percent} aria-label="Your progress" />
              <Text size="sm" c="dimmed">
                {`${course.progress.percent}% · ${progressText(course.progress)}`}
              </Text>
            </Stack>
          )}
          {complete && (
            <Group gap="xs" wrap="nowrap">
              <IconCircleCheck
                size={20}
                color="var(--mantine-color-green-filled)"
                aria-hidden="true"
              />
              <Text fw={600}>You have completed this course.</Text>
            </Group>
          )}
          <Group gap="sm" wrap="wrap" align="flex-start">
            {viewer.canLearn && resumeId && (
              <Button
                component={Link}
                to={href('lesson', { courseId: course.id, lessonId: resumeId })}
                rightSection={<IconArrowRight size={16} aria-hidden="true" />}
              >
                {course.lastLessonId ? 'Continue' : 'Start'}
              </Button>
            )}
            {(viewer.canEdit || viewer.canRestore) && (
              <Button
                component={Link}
                to={href('courseCreator', { course: course.id })}
                variant="default"
                leftSection={<IconEdit size={16} aria-hidden="true" />}
              >
                {viewer.canEdit ? 'Edit course' : 'Restore course'}
              </Button>
            )}
          </Group>
          <EnrolControls course={course} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** /classroom/:courseId: the course, enrolment, and its outline, assignments, grades and people. */
export function CoursePage() {
  const { courseId = '' } = useParams();
  const course = useCourse(courseId);
  const [params, setParams] = useSearchParams();

  if (course.isPending || course.isError) {
    return (
      <QueryState
        query={course}
        label="Loading the course"
        size="page"
        denied={{ page: 'this course' }}
        heading="Course"
        back={{ to: '/classroom', label: 'Back to the courses' }}
      />
    );
  }
  const detail = course.data;
  const tabs = courseTabs(detail);
  const asked = params.get('tab');
  const tab = tabs.find((t) => t.value === asked)?.value ?? 'outline';

  return (
    <Stack gap="lg">
      <Breadcrumbs separatorMargin={6}>
        <Anchor component={Link} to="/classroom" size="sm">
          Courses
        </Anchor>
        <Text size="sm" aria-current="page" lineClamp={1}>
          {detail.title}
        </Text>
      </Breadcrumbs>
      <CourseHeader course={detail} />
      {detail.summaryHtml && (
        <Paper withBorder p="md" component="section" aria-label="Summary">
          <RichTextView html={detail.summaryHtml} />
        </Paper>
      )}
      {(detail.viewer.canLearn || detail.viewer.canEdit) && (
        <Suspense fallback={null}>
          <ScopedAnnouncements scope={{ type: 'course', id: detail.id, name: detail.title }} />
        </Suspense>
      )}
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (!value || value === 'outline') next.delete('tab');
              else next.set('tab', value);
              return next;
            },
            { replace: true },
          )
        }
      >
        <SideScroll label="the course's tabs">
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {tabs.map((t) => (
              <Tabs.Tab key={t.value} value={t.value} style={{ flexShrink: 0 }}>
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </SideScroll>
        <Tabs.Panel value="outline" pt="md">
          <CourseOutline course={detail} />
        </Tabs.Panel>
        {tabs.some((t) => t.value === 'assignments') && (
          <Tabs.Panel value="assignments" pt="md">
            <CourseAssignments course={detail} />
          </Tabs.Panel>
        )}
        {tabs.some((t) => t.value === 'grades') && (
          <Tabs.Panel value="grades" pt="md">
            <CourseGradebook course={detail} />
          </Tabs.Panel>
        )}
        {tabs.some((t) => t.value === 'participants') && (
          <Tabs.Panel value="participants" pt="md">
            <ParticipantsTab course={detail} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
