/** The start page of someone who takes courses: continue, due soon, recent grades, their courses. */
import type { LearningOverview } from '@learning-hub/core';
import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ContinueCard } from '../../../components/continue-card';
import { CourseCard } from '../../../components/course-card';
import { DueList } from '../../../components/due-list';
import { formatDate } from '../../classroom/course-format';
import { EmptyText, HomeSection, PlainList } from './home-section';
import { href } from '../../../lib/links';

/** How many of the learner's courses the start page shows. */
export const HOME_COURSES_SHOWN = 6;

/** Released grades only (the server sends no others), the points always in view. */
function RecentGrades({ grades }: { grades: LearningOverview['recentGrades'] }) {
  if (grades.length === 0) return <EmptyText>No grades yet.</EmptyText>;
  return (
    <PlainList>
      {grades.map((g) => (
        <li key={`${g.courseId}/${g.assignmentId}`}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Anchor component={Link} to={href('course', { courseId: g.courseId, tab: 'grades' })}>
                {g.assignmentTitle}
              </Anchor>
              <Text size="xs" c="dimmed">
                {`${g.courseTitle} · ${formatDate(g.gradedAt)}`}
              </Text>
            </Stack>
            <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
              {`${g.points} / ${g.maxPoints}`}
              <Text span size="xs" c="dimmed" fw={400}>
                {' points'}
              </Text>
            </Text>
          </Group>
        </li>
      ))}
    </PlainList>
  );
}

export function LearnerSections({ overview }: { overview: LearningOverview }) {
  const { courses } = overview;
  return (
    <>
      <ContinueCard overview={overview} id="home-continue" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <HomeSection
          framed
          id="home-due"
          title="Due soon"
          action={
            <Anchor component={Link} to="/learning-management" size="sm">
              All your work
            </Anchor>
          }
        >
          <DueList
            items={[...overview.overdue, ...overview.dueSoon]}
            empty="Nothing is due in the next two weeks."
          />
        </HomeSection>
        <HomeSection framed id="home-grades" title="Recent grades">
          <RecentGrades grades={overview.recentGrades} />
        </HomeSection>
      </SimpleGrid>
      <HomeSection
        id="home-courses"
        title="Your courses"
        action={
          <Anchor component={Link} to="/classroom" size="sm">
            Browse all courses
          </Anchor>
        }
      >
        {courses.length === 0 ? (
          <EmptyText>You are not taking any course yet. Find one in the catalogue.</EmptyText>
        ) : (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {courses.slice(0, HOME_COURSES_SHOWN).map((course) => (
              <li key={course.id}>
                <CourseCard course={course} headingOrder={3} compact />
              </li>
            ))}
          </SimpleGrid>
        )}
      </HomeSection>
    </>
  );
}
