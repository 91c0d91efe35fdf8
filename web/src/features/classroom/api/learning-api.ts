/**
 * The learner's overview (GET /api/me/learning), which the start page and the learning page read.
 * A module of its own, apart from courses-api.ts, so that the start page loads only the overview's
 * contracts, not every schema of the classroom (docs/front-end.md "Each area's code in its own
 * chunks"). Its key sits under courses-api.ts's root, so a change to a course makes it stale.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** courseKeys.learning (courses-api.ts). */
export const LEARNING_OVERVIEW_KEY = [USER_QUERY_PREFIX, 'classroom-courses', 'learning'] as const;

/**
 * The overview's contracts (with the course card's), a chunk of their own beside the app's: their
 * schemas are built when the module is evaluated, and in the app's chunk (the start page is
 * bundled with the app) they lengthened its evaluation, the longest task of the start on a phone
 * (docs/front-end.md "Total blocking time"). The start page asks for them when it starts, so they
 * are there, evaluated in a task of their own, before the overview is asked for.
 */
const importLearningContracts = () => import('@learning-hub/core/contracts/learning');
/** Asked for once (until it fails: then again at the next call). */
let learningContracts: ReturnType<typeof importLearningContracts> | undefined;
export function loadLearningContracts(): ReturnType<typeof importLearningContracts> {
  learningContracts ??= importLearningContracts().catch((error: unknown) => {
    learningContracts = undefined;
    throw error;
  });
  return learningContracts;
}

/** GET /api/me/learning: the learner's courses, what is due, recent grades, what they teach. */
export function useLearningOverview(enabled = true) {
  return useQuery({
    queryKey: LEARNING_OVERVIEW_KEY,
    queryFn: async () => {
      const { LearningOverviewSchema } = await loadLearningContracts();
      return api.get('/api/me/learning', LearningOverviewSchema);
    },
    enabled,
  });
}
