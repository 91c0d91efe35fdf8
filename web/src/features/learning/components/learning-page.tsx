import type { LearningOverview } from '@learning-hub/core';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DataList, type DataListColumn } from '../../../components/data-list';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ContinueCard } from '../../../components/continue-card';
import { CourseCard } from '../../../components/course-card';
import { DueList } from '../../../components/due-list';
import {
  COURSE_STATE_COLORS,
  COURSE_STATE_LABELS,
  formatDate,
} from '../../classroom/course-format';
import { useLearningOverview } from '../../classroom/api/learning-api';
import { QueryState } from '../../../components/query-state';
import { href } from '../../../lib/links';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** A table on a wide screen, a card per grade on a phone (components/data-list.tsx). */
const GRADE_COLUMNS: readonly DataListColumn<LearningOverview['recentGrades'][number]>[] = [
  { header: 'Assignment', cell: (g) => g.assignmentTitle, card: 'title' },
  // Points next to the assignment: on a phone they show beside its title.
  {
    header: 'Points',
    cell: (g) => <span style={{ whiteSpace: 'nowrap' }}>{`${g.points} / ${g.maxPoints}`}</span>,
    align: 'right',
    card: 'aside',
  },
  {
    header: 'Course',
    cell: (g) => (
      <Anchor component={Link} to={href('course', { courseId: g.courseId, tab: 'grades' })}>
        {g.courseTitle}
      </Anchor>
    ),
  },
  { header: 'Graded', cell: (g) => formatDate(g.gradedAt) },
];

/** The courses a teacher teaches: a table, or a card per course on a phone. */
const TEACHING_COLUMNS: readonly DataListColumn<LearningOverview['teaching'][number]>[] = [
  {
    header: 'Course',
    cell: (c) => (
      <>
        <Anchor component={Link} to={href('course', { courseId: c.courseId })}>
          {c.courseTitle}
        </Anchor>
        <Text size="xs" c="dimmed">
          {c.code}
        </Text>
      </>
    ),
    card: 'title',
  },
  {
    header: 'State',
    cell: (c) => (
      <Badge variant="light" tt="none" color={COURSE_STATE_COLORS[c.state]}>
        {COURSE_STATE_LABELS[c.state]}
      </Badge>
    ),
    card: 'aside',
  },
  { header: 'Learners', cell: (c) => c.learners, align: 'right' },
  {
    header: 'To grade',
    cell: (c) =>
      c.toGrade > 0 ? (
        <Anchor
          component={Link}
          to={href('course', { courseId: c.courseId, tab: 'assignments' })}
          aria-label={`${c.toGrade} to grade in ${c.courseTitle}`}
        >
          {c.toGrade}
        </Anchor>
      ) : (
        0
      ),
    align: 'right',
  },
];

function RecentGrades({ grades }: { grades: LearningOverview['recentGrades'] }) {
  if (grades.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No grades yet.
      </Text>
    );
  }
  return (
    <DataList
      rows={grades}
      rowKey={(g) => g.assignmentId}
      columns={GRADE_COLUMNS}
      label="Recent grades"
      minWidth={480}
    />
  );
}

function Teaching({ courses }: { courses: LearningOverview['teaching'] }) {
  return (
    <DataList
      rows={courses}
      rowKey={(c) => c.courseId}
      columns={TEACHING_COLUMNS}
      label="Courses you teach"
      minWidth={520}
    />
  );
}

/** /learning-management: the learner's courses and work, and what a teacher teaches. */
export function LearningPage() {
  const overview = useLearningOverview();
  const data = overview.data;
  return (
    <Stack gap="lg">
      <Title order={1}>Learning Management</Title>
      <QueryState query={overview} label="Loading your learning" />
      {data && (
        <>
          <ContinueCard overview={data} id="learning-continue" />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section id="learning-overdue" title="Overdue">
              <DueList items={data.overdue} empty="Nothing is overdue." />
            </Section>
            <Section id="learning-due" title="Due soon">
              <DueList items={data.dueSoon} empty="Nothing is due in the next two weeks." />
            </Section>
          </SimpleGrid>
          <Section id="learning-courses" title="Your courses">
            {data.courses.length === 0 ? (
              <Group gap="xs">
                <Text size="sm" c="dimmed">
                  You are not enrolled in any course.
                </Text>
                <Anchor component={Link} to="/classroom" size="sm">
                  Browse the courses
                </Anchor>
              </Group>
            ) : (
              <SimpleGrid
                cols={{ base: 1, sm: 2, lg: 3 }}
                component="ul"
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {data.courses.map((course) => (
                  <li key={course.id}>
                    <CourseCard course={course} headingOrder={3} compact />
                  </li>
                ))}
              </SimpleGrid>
            )}
          </Section>
          <Section id="learning-grades" title="Recent grades">
            <RecentGrades grades={data.recentGrades} />
          </Section>
          {data.teaching.length > 0 && (
            <Section id="learning-teaching" title="Teaching">
              <Teaching courses={data.teaching} />
            </Section>
          )}
        </>
      )}
    </Stack>
  );
}
