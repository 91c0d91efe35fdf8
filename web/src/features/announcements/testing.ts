/** Builders of the announcements' answers for component tests. */
import type { Announcement } from '@learning-hub/core';

export function buildAnnouncement(overrides: Partial<Announcement> = {}): Announcement {
  return {
    id: 'ann-1',
    title: 'Cable cut: Elm Street closed',
    bodyHtml: '<p>A contractor cut the feeder.</p>',
    priority: 'info',
    pinned: false,
    requiresAck: false,
    state: 'live',
    publishAt: null,
    publishedAt: '2026-11-29T09:00:00.000Z',
    expiresAt: null,
    withdrawnAt: null,
    remindedAt: null,
    author: { id: 'admin-1', name: 'Alex Morgan' },
    audience: { everyone: true, roles: [], departments: [], courses: [], people: [] },
    createdAt: '2026-11-29T09:00:00.000Z',
    updatedAt: '2026-11-29T09:00:00.000Z',
    revision: 2,
    receipt: null,
    counts: null,
    can: { edit: false, withdraw: false, remind: false, viewRecipients: false },
    ...overrides,
  };
}

/** A page of announcements as GET /api/announcements answers it. */
export function announcementPage(items: Announcement[], total = items.length) {
  return { items, total, page: 1, pageSize: 20 };
}

/** What a manager gets: counts and every ability. */
export const MANAGED = {
  counts: { recipients: 8, delivered: 5, read: 3, acknowledged: 2 },
  can: { edit: true, withdraw: true, remind: true, viewRecipients: true },
} satisfies Partial<Announcement>;
