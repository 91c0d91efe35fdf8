/** One course as a card: the catalogue, the start page and the learning page show these. */
import type { CourseCard as CourseCardData } from '@learning-hub/core';
import {
  Anchor,
  AspectRatio,
  Badge,
  Card,
  Center,
  Group,
  Image,
  Progress,
  Stack,
  Text,
  Title,
  type TitleOrder,
} from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  COURSE_STATE_COLORS,
  COURSE_STATE_LABELS,
  progressText,
} from '../features/classroom/course-format';
import { href } from '../lib/links';

export interface CourseCardProps {
  course: CourseCardData;
  /** The level of the course title's heading in the page (default 3). */
  headingOrder?: TitleOrder;
  /** Hide the summary (compact lists). */
  compact?: boolean;
}

/** Cover, code, title (the link), summary, department, state, enrolment and progress. */
export function CourseCard({ course, headingOrder = 3, compact = false }: CourseCardProps) {
  const progress = course.progress;
  return (
    <Card withBorder padding="md" h="100%" component="article">
      <Card.Section>
        <AspectRatio ratio={16 / 6}>
          {course.coverUrl ? (
            <Image src={course.coverUrl} alt="" fit="cover" />
          ) : (
            <Center bg="var(--mantine-color-default-hover)" aria-hidden="true">
              <IconSchool size={36} stroke={1.2} color="var(--mantine-color-dimmed)" />
            </Center>
          )}
        </AspectRatio>
      </Card.Section>
      <Stack gap={6} mt="sm" style={{ flex: 1 }}>
        <Group gap={6} wrap="wrap">
          <Badge variant="light" tt="none">
            {course.code}
          </Badge>
          {course.state !== 'published' && (
            <Badge variant="light" tt="none" color={COURSE_STATE_COLORS[course.state]}>
              {COURSE_STATE_LABELS[course.state]}
            </Badge>
          )}
          {course.enrolled && (
            <Badge variant="light" tt="none" color="green">
              Enrolled
            </Badge>
          )}
        </Group>
        <Title order={headingOrder} size="h4">
          <Anchor component={Link} to={href('course', { courseId: course.id })} inherit>
            {course.title}
          </Anchor>
        </Title>
        {!compact && course.summary && (
          <Text size="sm" c="dimmed" lineClamp={3}>
            {course.summary}
          </Text>
        )}
        {course.departmentName && (
          <Text size="xs" c="dimmed">
            {course.departmentName}
          </Text>
        )}
        {progress && (
          <Stack gap={4} mt="auto">
            <Progress
              value={progress.percent}
              size="sm"
              aria-label={`Progress in ${course.title}`}
            />
            <Text size="xs" c="dimmed">
              {`${progress.percent}% · ${progressText(progress)}`}
            </Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
