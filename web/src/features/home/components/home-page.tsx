import { findRoute, type LearningOverview } from '@learning-hub/core';
import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueries, type UseQueryOptions } from '@tanstack/react-query';
import {
  lazy,
  startTransition,
  Suspense,
  useDeferredValue,
  useEffect,
  useState,
  type ComponentType,
} from 'react';
import { useAuth } from '../../../lib/auth/auth-context';
import { useCan, type Can } from '../../../lib/auth/use-can';
import { prepareDateTimeFormat } from '../../../lib/format';
import { nextTask } from '../../../lib/next-task';
import { errorMessage, prepareDateFormat } from '../../classroom/course-format';
import { loadLearningContracts, useLearningOverview } from '../../classroom/api/learning-api';
import { useSignInFailures } from '../api/home-api';
import { HOME_SECTIONS } from '../home-sections';
import { AdminSections } from './admin-sections';
import { LearnerSections } from './learner-sections';
import { TeachingSections } from './teaching-sections';

const CLASSROOM_ROUTE = findRoute('/classroom');
const ADMIN_ROUTE = findRoute('/admin');
const WIKI_ROUTE = findRoute('/wiki');
// Its own chunk, asked for once the sections above it have settled (docs/front-end.md).
const WikiSection = lazy(() => import('./wiki-section').then((m) => ({ default: m.WikiSection })));

/**
 * Whether the learner's sections are shown: to anyone who takes a course or has something of
 * it to show, and, with their empty states, to whoever has nothing else here (a new learner).
 */
function showsLearning(overview: LearningOverview, teaches: boolean, administers: boolean) {
  return (
    overview.courses.length > 0 ||
    overview.recentGrades.length > 0 ||
    overview.continueLesson !== null ||
    overview.courseComplete !== null ||
    (!teaches && !administers)
  );
}

/**
 * The sections the areas contribute (home-sections.ts), first of the page: their chunks and their
 * first data asked for at once, side by side; each shows once both are there. `settled`: all of
 * them are (or failed), so the page's own sections below can come without pushing anything down.
 */
function useContributedSections(can: Can) {
  const wanted = HOME_SECTIONS.filter((section) => section.shows(can));
  const [loaded, setLoaded] = useState<Readonly<Record<string, ComponentType | null>>>({});
  const ids = wanted.map((section) => section.id).join(',');
  useEffect(() => {
    for (const section of HOME_SECTIONS) {
      if (!ids.split(',').includes(section.id)) continue;
      // A chunk that fails to load leaves its section out rather than the page waiting for it.
      // In a transition: what it lets through (the page's own sections too) renders in slices.
      const done = (Component: ComponentType | null) =>
        startTransition(() => setLoaded((current) => ({ ...current, [section.id]: Component })));
      void section.load().then(done, () => done(null));
    }
  }, [ids]);
  const queries = useQueries({
    queries: wanted.map((section) =>
      section.query
        ? (section.query() as UseQueryOptions)
        : { queryKey: ['home-section', section.id], queryFn: () => null },
    ),
  });
  // The answers arrive as store updates, rendered at once; deferred, the render they cause (which
  // lets the page's own sections through) is interruptible (docs/front-end.md "Total blocking
  // time").
  const statuses = useDeferredValue(queries.map((query) => query.status).join(','));
  const waiting = (index: number) => statuses.split(',')[index] === 'pending';
  const settled = wanted.every((section, index) => section.id in loaded && !waiting(index));
  const sections = wanted.flatMap((section, index) => {
    const Component = loaded[section.id];
    return Component && !waiting(index) ? [<Component key={section.id} />] : [];
  });
  return { sections, settled };
}

/**
 * / : where each person's work starts. A greeting, the sections the areas contribute
 * (home-sections.ts: the announcements first), then the sections of what the server says the
 * user has: the courses they take (continue, due soon, grades, courses), the courses they teach
 * (to grade, hand-ins, courses, due dates) and, for admins, the admin area's shortcuts and the
 * latest failed sign-ins; then the wiki (the pages they follow, the pages changed lately). The menu
 * is for going anywhere else.
 */
export function HomePage() {
  const { user } = useAuth();
  const can = useCan();
  const learns = CLASSROOM_ROUTE ? can.route(CLASSROOM_ROUTE).allowed : false;
  const administers = ADMIN_ROUTE ? can.route(ADMIN_ROUTE).allowed : false;
  const readsWiki = WIKI_ROUTE ? can.route(WIKI_ROUTE).allowed : false;
  const contributed = useContributedSections(can);
  const overview = useLearningOverview(learns);
  // Asked at once, beside the overview, though shown below it.
  const failures = useSignInFailures(administers);
  // The answers come in as store updates, which React renders at once, in one go: the sections
  // (most of the page) would hold the main thread for the whole render. Deferred, that render is
  // interruptible and yields to the browser every few milliseconds (docs/front-end.md "Total
  // blocking time"). Status and data are deferred together, so they stay in step.
  const status = useDeferredValue(overview.status);
  const data = useDeferredValue(overview.data);
  const failuresStatus = useDeferredValue(failures.status);
  const failuresData = useDeferredValue(failures.data);
  // While the answers are on their way (the permissions first, which say whether the overview is
  // asked for): the overview's contracts load (learning-api.ts), and the date formatters are made,
  // each in a task of its own. The first formatter loads the locale's data, on a phone one of the
  // longest pieces of work of the start, which would otherwise be part of the render of the
  // sections (docs/front-end.md "Total blocking time").
  useEffect(() => {
    // A failure is the overview query's to report: it asks again.
    loadLearningContracts().catch(() => undefined);
    void (async () => {
      await nextTask();
      prepareDateTimeFormat();
      await nextTask();
      prepareDateFormat();
    })();
  }, []);
  if (!user) return null;
  // The admin's sections wait for the sections above them, so nothing is pushed down when those
  // arrive (docs/front-end.md: layout shift).
  const ready = contributed.settled;
  const settled = ready && (!learns || status !== 'pending');
  const teaches = (data?.teaching.length ?? 0) > 0;
  const learning = data !== undefined && showsLearning(data, teaches, administers);
  return (
    <Stack gap="xl">
      <Title order={1}>{`Welcome, ${user.firstname}`}</Title>
      {contributed.sections}
      {learns && (status === 'pending' || !ready) && (
        <Loader size="sm" aria-label="Loading your courses" />
      )}
      {ready && learns && status === 'error' && (
        <Alert color="red" role="alert">
          {errorMessage(overview.error)}
        </Alert>
      )}
      {ready && data && learning && <LearnerSections overview={data} />}
      {ready && data && teaches && <TeachingSections overview={data} />}
      {settled && administers && (
        <AdminSections failures={failuresData} status={failuresStatus} error={failures.error} />
      )}
      {settled && !learns && !administers && !readsWiki && (
        <Text c="dimmed">Nothing here needs you yet. The menu lists the pages you can open.</Text>
      )}
      {settled && readsWiki && (
        <Suspense fallback={null}>
          <WikiSection />
        </Suspense>
      )}
    </Stack>
  );
}
