import {
  NAV_ITEMS,
  ROUTES,
  findRoute,
  type LearningOverview,
  type RouteDef,
} from '@learning-hub/core';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useDeferredValue, type ReactNode } from 'react';
import { Link, generatePath } from 'react-router';
import { CourseCard } from '../../../components/course-card';
import { DueList } from '../../../components/due-list';
import { useAuth } from '../../../lib/auth/auth-context';
import { useCan, type Can } from '../../../lib/auth/use-can';
import { errorMessage, lessonPath } from '../../../lib/classroom/course-format';
import { useLearningOverview } from '../../../lib/classroom/courses-api';

/** How many of the learner's courses the start page shows. */
export const HOME_COURSES_SHOWN = 6;

export interface HomeLink {
  label: string;
  path: string;
  description?: string;
  built: boolean;
}

const DEPARTMENT_ROUTE = '/departments/:deptName';

/**
 * What a user may open, computed with core's checks: the nav items they see whose route they
 * pass, their own department page, then every other page of the route table they pass.
 */
export function homeLinks(can: Can, departmentId: string | null, department: string | null) {
  const routeAllowed = (route: RouteDef | undefined, params = {}) =>
    !route || can.route(route, params).allowed;

  const menu: HomeLink[] = NAV_ITEMS.filter(
    (item) => item.path !== '/' && can.navItem(item) && routeAllowed(findRoute(item.path)),
  ).map((item) => ({
    label: item.label,
    path: item.path,
    built: findRoute(item.path)?.built ?? true,
  }));

  const deptRoute = findRoute(DEPARTMENT_ROUTE);
  if (departmentId && deptRoute && routeAllowed(deptRoute, { deptName: departmentId })) {
    menu.push({
      label: department ?? departmentId,
      path: generatePath(DEPARTMENT_ROUTE, { deptName: departmentId }),
      description: 'Your department',
      built: deptRoute.built,
    });
  }

  const taken = new Set([...menu.map((link) => link.path), ...NAV_ITEMS.map((i) => i.path)]);
  const titles = new Set<string>();
  const more: HomeLink[] = [];
  for (const route of ROUTES) {
    if (route.access !== 'authenticated' || route.path.includes(':') || taken.has(route.path)) {
      continue;
    }
    if (titles.has(route.title) || !can.route(route).allowed) continue;
    titles.add(route.title);
    more.push({ label: route.title, path: route.path, built: route.built });
  }
  return { menu, more };
}

function LinkCards({ links }: { links: HomeLink[] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, md: 3 }}
      component="ul"
      style={{ listStyle: 'none', padding: 0 }}
    >
      {links.map((link) => (
        <li key={link.path}>
          <Card component={Link} to={link.path} withBorder padding="md" h="100%">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{link.label}</Text>
              {!link.built && (
                <Badge variant="light" color="gray" size="sm" tt="none">
                  Not available yet
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {link.description ?? link.path}
            </Text>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}

function HomeSection({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Stack>
  );
}

/** Continue, due soon and the learner's courses, from GET /api/me/learning. */
function LearningSections({ overview }: { overview: LearningOverview }) {
  const { continueLesson, courses } = overview;
  const due = [...overview.overdue, ...overview.dueSoon];
  return (
    <>
      {continueLesson && (
        <Paper withBorder p="md" component="section" aria-labelledby="home-continue">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Title order={2} size="h4" id="home-continue">
                Continue where you left off
              </Title>
              <Text fw={600}>{continueLesson.lessonTitle}</Text>
              <Text size="sm" c="dimmed">
                {continueLesson.courseTitle}
              </Text>
            </Stack>
            <Button
              component={Link}
              to={lessonPath(continueLesson.courseId, continueLesson.lessonId)}
              rightSection={<IconArrowRight size={16} aria-hidden="true" />}
              aria-label={`Continue ${continueLesson.lessonTitle}`}
            >
              Continue
            </Button>
          </Group>
        </Paper>
      )}
      <HomeSection
        id="home-due"
        title="Due soon"
        action={
          <Anchor component={Link} to="/learning-management" size="sm">
            All your work
          </Anchor>
        }
      >
        <DueList items={due} empty="Nothing is due in the next two weeks." />
      </HomeSection>
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
          <Text size="sm" c="dimmed">
            You are not taking any course yet. Find one in the catalogue.
          </Text>
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

const CLASSROOM_ROUTE = findRoute('/classroom');

/** / : a greeting, where to continue, what is due, the learner's courses, and their pages. */
export function HomePage() {
  const { user } = useAuth();
  const can = useCan();
  const learns = CLASSROOM_ROUTE ? can.route(CLASSROOM_ROUTE).allowed : false;
  const overview = useLearningOverview(learns);
  // The answer comes in as a store update, which React renders at once, in one go: its sections
  // and links (most of the page) would hold the main thread for the whole render. Deferred, that
  // render is interruptible and yields to the browser every few milliseconds (docs/front-end.md
  // "Total blocking time"). Status and data are deferred together, so they stay in step.
  const status = useDeferredValue(overview.status);
  const data = useDeferredValue(overview.data);
  if (!user) return null;
  const { menu, more } = homeLinks(can, user.departmentId, user.department);
  // The links below wait for the learning sections above them, so nothing is pushed down when
  // those arrive (docs/front-end.md: layout shift).
  const settled = !learns || status !== 'pending';
  return (
    <Stack gap="xl">
      <Title order={1}>{`Welcome, ${user.firstname}`}</Title>
      {learns && status === 'pending' && <Loader size="sm" aria-label="Loading your courses" />}
      {learns && status === 'error' && (
        <Alert color="red" role="alert">
          {errorMessage(overview.error)}
        </Alert>
      )}
      {data && <LearningSections overview={data} />}
      {settled && menu.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="home-menu">
          <Title order={2} size="h3" id="home-menu">
            Your learning hub
          </Title>
          <LinkCards links={menu} />
        </Stack>
      )}
      {settled && more.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="home-more">
          <Title order={2} size="h3" id="home-more">
            More pages
          </Title>
          <LinkCards links={more} />
        </Stack>
      )}
    </Stack>
  );
}
