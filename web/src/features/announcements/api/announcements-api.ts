/**
 * The announcements' endpoints (docs/announcements.md), their query keys and hooks. Light on
 * purpose: the start page's section and the shell's banner use it, so the contracts (every schema
 * of core/src/contracts/announcements.ts) load with the first request, not with the app
 * (docs/front-end.md "Each area's code in its own chunks").
 *
 * Query keys (exported for the live channel, docs/announcements.md "Live"): everything under
 * `announcementKeys.all`; the lists under `.lists`, one announcement under `.detail(id)`, its
 * people under `.recipients(id, …)`. A notification of kind `announcement` makes `.all` stale;
 * `announcement-counts` on the topic `announcement` updates `.detail(id)`'s counts.
 */
import type {
  Announcement,
  AnnouncementCounts,
  AnnouncementCreate,
  AnnouncementPriority,
  AnnouncementState,
  AnnouncementUpdate,
} from '@learning-hub/core';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError, UNEXPECTED_RESPONSE } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { queryString } from '../../../lib/query-string';

/** The contracts, a chunk of their own, asked for with the first request. */
const contracts = () => import('@learning-hub/core/contracts/announcements');

/** Any JSON: the answer is checked once the contracts are there (`checked`). */
const ANY = z.unknown();

/** The answer checked against its contract, as api.get would have (INVALID_RESPONSE). */
function checked<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('INVALID_RESPONSE', UNEXPECTED_RESPONSE, 200, parsed.error.issues);
  }
  return parsed.data;
}

/**
 * Lists are fresh for a while: the live channel makes them stale when something changes
 * (a notification of kind announcement), so a second reader of one answer (the start page and
 * its section) does not ask again.
 */
const LIST_STALE_MS = 30_000;

/** The query of GET /api/announcements (core's AnnouncementListQuerySchema). */
export interface AnnouncementListParams {
  view: 'mine' | 'manage';
  state?: AnnouncementState;
  courseId?: string;
  departmentId?: string;
  priority?: AnnouncementPriority;
  unacknowledged?: boolean;
  page: number;
  pageSize: number;
}

export interface RecipientParams {
  acknowledged?: boolean;
  page: number;
  pageSize: number;
}

export const announcementKeys = {
  /** Every announcement query of the signed-in user. */
  all: [USER_QUERY_PREFIX, 'announcements'] as const,
  /** Every list (the reader's and the manager's, any filter). */
  lists: [USER_QUERY_PREFIX, 'announcements', 'list'] as const,
  list: (params: AnnouncementListParams) =>
    [USER_QUERY_PREFIX, 'announcements', 'list', params] as const,
  detail: (id: string) => [USER_QUERY_PREFIX, 'announcements', 'detail', id] as const,
  /** Every page of one announcement's recipients. */
  recipientsOf: (id: string) => [USER_QUERY_PREFIX, 'announcements', 'recipients', id] as const,
  recipients: (id: string, params: RecipientParams) =>
    [USER_QUERY_PREFIX, 'announcements', 'recipients', id, params] as const,
};

const path = (id: string) => `/api/announcements/${encodeURIComponent(id)}`;

/** GET /api/announcements: the reader's (`view` mine) or the manager's list. */
export function announcementsQuery(params: AnnouncementListParams) {
  return queryOptions({
    queryKey: announcementKeys.list(params),
    // The request goes out beside the contracts' chunk, not after it (the start page's section
    // and the banner: one round trip fewer on a phone, docs/front-end.md).
    queryFn: async ({ signal }) => {
      const [{ AnnouncementListSchema }, body] = await Promise.all([
        contracts(),
        api.get(`/api/announcements${queryString({ ...params })}`, ANY, { signal }),
      ]);
      return checked(AnnouncementListSchema, body);
    },
    staleTime: LIST_STALE_MS,
  });
}

export function useAnnouncements(params: AnnouncementListParams, enabled = true) {
  return useQuery({ ...announcementsQuery(params), placeholderData: keepPreviousData, enabled });
}

/** What the start page shows: the reader's latest (urgent unacknowledged ones first). */
export const HOME_ANNOUNCEMENTS: AnnouncementListParams = { view: 'mine', page: 1, pageSize: 5 };

/** What the banner shows: urgent ones still waiting for the reader's acknowledgement. */
export const BANNER_ANNOUNCEMENTS: AnnouncementListParams = {
  view: 'mine',
  priority: 'urgent',
  unacknowledged: true,
  page: 1,
  pageSize: 5,
};

/** GET /api/announcements/{id} (a reader's opening marks it read). */
export function announcementQuery(id: string) {
  return queryOptions({
    queryKey: announcementKeys.detail(id),
    queryFn: async ({ signal }) => {
      const { AnnouncementSchema } = await contracts();
      return api.get(path(id), AnnouncementSchema, { signal });
    },
  });
}

export function useAnnouncement(id: string | null | undefined) {
  return useQuery({ ...announcementQuery(id ?? ''), enabled: !!id });
}

/** The live counts of one announcement (announcement-counts) into its cached copy. */
export function setAnnouncementCounts(
  client: QueryClient,
  id: string,
  counts: AnnouncementCounts,
): void {
  client.setQueryData<Announcement>(announcementKeys.detail(id), (current) =>
    current ? { ...current, counts } : current,
  );
}

/** Everything about announcements is stale (a change, a notification of kind announcement). */
export function invalidateAnnouncements(client: QueryClient) {
  return client.invalidateQueries({ queryKey: announcementKeys.all });
}

function useAnnouncementMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => invalidateAnnouncements(client),
  });
}

export function useCreateAnnouncement() {
  return useAnnouncementMutation(async (body: AnnouncementCreate) => {
    const { AnnouncementSchema } = await contracts();
    return api.post('/api/announcements', body, AnnouncementSchema);
  });
}

export function useUpdateAnnouncement(id: string) {
  return useAnnouncementMutation(async (body: AnnouncementUpdate) => {
    const { AnnouncementSchema } = await contracts();
    return api.patch(path(id), body, AnnouncementSchema);
  });
}

export function useWithdrawAnnouncement() {
  return useAnnouncementMutation(async (id: string) => {
    const { AnnouncementSchema } = await contracts();
    return api.post(`${path(id)}/withdrawal`, undefined, AnnouncementSchema);
  });
}

export function useAcknowledgeAnnouncement() {
  return useAnnouncementMutation(async (id: string) => {
    const { AnnouncementAcknowledgementSchema } = await contracts();
    return api.post(`${path(id)}/acknowledgement`, undefined, AnnouncementAcknowledgementSchema);
  });
}

export function useRemindAnnouncement() {
  return useAnnouncementMutation(async (id: string) => {
    const { AnnouncementReminderSchema } = await contracts();
    return api.post(`${path(id)}/reminders`, undefined, AnnouncementReminderSchema);
  });
}

/** GET …/recipients: who it reached (or, `acknowledged: false`, who has not acknowledged). */
export function useRecipients(id: string, params: RecipientParams, enabled = true) {
  return useQuery({
    queryKey: announcementKeys.recipients(id, params),
    queryFn: async ({ signal }) => {
      const { AnnouncementRecipientListSchema } = await contracts();
      return api.get(
        // `false` said as a word: the query-string builder leaves a bare `false` out.
        `${path(id)}/recipients${queryString({
          ...params,
          acknowledged: params.acknowledged === undefined ? undefined : String(params.acknowledged),
        })}`,
        AnnouncementRecipientListSchema,
        { signal },
      );
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}
