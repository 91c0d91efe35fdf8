/**
 * Announcements over HTTP on a real database (both): who an audience reaches through the
 * permission model, who may announce to whom, bad input, the states and what may change in each,
 * acknowledgements, counts, the recipients and their CSV, reminders and the races between them.
 */
import type {
  Announcement,
  AnnouncementCounts,
  AnnouncementRecipientList,
} from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  announcementFixture,
  audience,
  body,
  COURSE,
  DRAFT_COURSE,
  FIELD,
  OTHER_COURSE,
  SUPPORT,
  type Fixture,
  type Name,
} from './test-fixture';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;

describe.skipIf(!available)(`announcements (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  beforeEach(async () => {
    ctx = await createTestApp();
    f = await announcementFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const namesOf = (ids: readonly string[]) =>
    (Object.keys(f.ids) as Name[]).filter((n) => ids.includes(f.ids[n])).sort();

  async function recipients(id: string, query = ''): Promise<Name[]> {
    const response = await f.as(
      'ada',
      'GET',
      `/api/announcements/${id}/recipients?pageSize=100${query}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return namesOf(response.json<AnnouncementRecipientList>().items.map((r) => r.user.id));
  }

  async function notified(id: string): Promise<Name[]> {
    const rows = await ctx.database.db
      .selectFrom('notifications as n')
      .innerJoin('notification_events as e', 'e.id', 'n.event_id')
      .where('e.source_type', '=', 'announcement')
      .where('e.source_id', '=', id)
      .select('n.user_id')
      .execute();
    return namesOf(rows.map((r) => r.user_id));
  }

  async function get(who: Name, id: string): Promise<Announcement> {
    const response = await f.as(who, 'GET', `/api/announcements/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Announcement>();
  }

  describe('who an audience reaches', () => {
    it('reaches everyone active but its author, and tells each of them', async () => {
      const a = await f.announce('ada', {});
      expect(a.state).toBe('live');
      const expected: Name[] = ['kim', 'lee', 'mia', 'priya', 'sam', 'tina'];
      expect(await recipients(a.id)).toEqual(expected);
      expect(await notified(a.id)).toEqual(expected);
      expect(a.counts).toMatchObject({ recipients: 6, acknowledged: 0 });
      for (const who of expected) expect(await f.mine(who)).toEqual([a.id]);
      expect(await f.mine('ada')).toEqual([]);
    });

    it('reaches a role by exactly that role', async () => {
      const a = await f.announce('ada', { audience: audience({ roles: ['instructor'] }) });
      expect(await recipients(a.id)).toEqual(['priya']);
    });

    it('reaches a department’s members by account and by assignment, active ones only', async () => {
      const a = await f.announce('ada', { audience: audience({ departmentIds: [FIELD] }) });
      expect(await recipients(a.id)).toEqual(['mia', 'priya', 'sam']);
    });

    it('reaches a course’s participants in force, not those whose enrolment ended', async () => {
      const a = await f.announce('ada', { audience: audience({ courseIds: [COURSE] }) });
      expect(await recipients(a.id)).toEqual(['sam', 'tina']);
    });

    it('reaches only those who may edit a draft course', async () => {
      const a = await f.announce('ada', { audience: audience({ courseIds: [DRAFT_COURSE] }) });
      expect(await recipients(a.id)).toEqual(['tina']);
    });

    it('reaches a mix once each: chosen people, a department and a course', async () => {
      const a = await f.announce('ada', {
        audience: audience({
          departmentIds: [SUPPORT],
          courseIds: [COURSE],
          userIds: [f.ids.lee, f.ids.sam],
        }),
      });
      expect(await recipients(a.id)).toEqual(['kim', 'lee', 'mia', 'sam', 'tina']);
      expect(a.counts?.recipients).toBe(5);
      expect(a.audience.people.map((p) => p.name).sort()).toEqual(['Lee Tester', 'Sam Tester']);
      expect(a.audience.courses).toEqual([{ id: COURSE, name: 'Course SP-101' }]);
    });
  });

  describe('who may announce to whom', () => {
    const refused = async (who: Name, parts: Parameters<typeof audience>[0], reason: RegExp) => {
      const response = await f.as(
        who,
        'POST',
        '/api/announcements',
        body({ audience: audience(parts) }),
      );
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(reason),
      });
    };

    it('lets a course’s instructor announce to it, and nowhere else', async () => {
      const a = await f.announce('tina', { audience: audience({ courseIds: [COURSE] }) });
      expect(await recipients(a.id)).toEqual(['sam']);
      await refused(
        'tina',
        { courseIds: [OTHER_COURSE] },
        /courses you edit: Missing required permission: course.edit/,
      );
      await refused('tina', { courseIds: [COURSE, OTHER_COURSE] }, /course otdr-210/);
      await refused('tina', { everyone: true }, /^Only administrators announce to everyone/);
      await refused('tina', { roles: ['student'] }, /system.admin/);
      await refused('tina', { courseIds: [COURSE], userIds: [f.ids.kim] }, /chosen people/);
    });

    it('lets a department’s manager announce to it, and not to another', async () => {
      const a = await f.announce('mia', { audience: audience({ departmentIds: [FIELD] }) });
      expect(await recipients(a.id)).toEqual(['priya', 'sam']);
      await refused(
        'mia',
        { departmentIds: [SUPPORT] },
        /departments you manage: Missing required permission: department.manage/,
      );
      await refused('mia', { courseIds: [COURSE] }, /course.edit/);
    });

    it('lets a system instructor announce to any course but to no department', async () => {
      await f.announce('priya', { audience: audience({ courseIds: [OTHER_COURSE] }) });
      await refused('priya', { departmentIds: [FIELD] }, /department.manage/);
    });

    it('lets a student announce to nobody', async () => {
      await refused('sam', { courseIds: [COURSE] }, /course.edit/);
      await refused('sam', { everyone: true }, /system.admin/);
    });

    it('gives a manager only what they manage, and a reader nothing to change', async () => {
      const toCourse = await f.announce('tina', { audience: audience({ courseIds: [COURSE] }) });
      const toAll = await f.announce('ada', {});
      const managed = await f.as('tina', 'GET', '/api/announcements?view=manage');
      expect(managed.json<{ items: Announcement[] }>().items.map((a) => a.id)).toEqual([
        toCourse.id,
      ]);
      // Tina reads the admin's (it reached her) but may not change, withdraw or count it.
      const read = await get('tina', toAll.id);
      expect(read.counts).toBeNull();
      expect(read.can).toEqual({
        edit: false,
        withdraw: false,
        remind: false,
        viewRecipients: false,
      });
      const patch = await f.as('tina', 'PATCH', `/api/announcements/${toAll.id}`, {
        revision: read.revision,
        title: 'Mine now',
      });
      expect(patch.statusCode).toBe(403);
      expect(
        (await f.as('tina', 'GET', `/api/announcements/${toAll.id}/recipients`)).statusCode,
      ).toBe(403);
      // Kim neither reads nor manages Tina's: it does not exist for her.
      expect((await f.as('kim', 'GET', `/api/announcements/${toCourse.id}`)).statusCode).toBe(404);
      expect(
        (await f.as('kim', 'POST', `/api/announcements/${toCourse.id}/withdrawal`)).statusCode,
      ).toBe(404);
    });
  });

  describe('bad input', () => {
    it.each([
      ['no title', { title: '  ' }, 'Enter a title'],
      ['a title on two lines', { title: 'a\nb' }, 'The title must be on one line'],
      [
        'a control character',
        { title: 'a\u0007b' },
        'The title contains characters that are not allowed',
      ],
      ['nobody', { audience: audience({}) }, 'Choose who the announcement is for.'],
      ['a time without a time', { publish: 'at' as const }, 'Choose when it goes out.'],
      ['a bad priority', { priority: 'loud' as never }, ''],
      ['an unknown field', { colour: 'red' } as never, ''],
    ])('refuses %s with a 400', async (_, fields, message) => {
      const response = await f.as('ada', 'POST', '/api/announcements', { ...body(), ...fields });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      if (message) expect(response.body).toContain(message);
    });

    it.each([
      [
        'a time in the past',
        { publish: 'at', publishAt: '2020-01-01T00:00:00.000Z' },
        'Choose a time in the future for it to go out.',
      ],
      [
        'an expiry in the past',
        { expiresAt: '2020-01-01T00:00:00.000Z' },
        'Choose an expiry in the future.',
      ],
      [
        'an unknown course',
        { audience: audience({ courseIds: ['nope'] }) },
        'There is no course with the id “nope”.',
      ],
      [
        'an unknown department',
        { audience: audience({ departmentIds: ['nope'] }) },
        'There is no department with the id “nope”.',
      ],
      [
        'an unknown role',
        { audience: audience({ roles: ['wizard'] }) },
        'There is no role “wizard”.',
      ],
    ] as const)('refuses %s with a 400 saying so', async (_, fields, message) => {
      const response = await f.as('ada', 'POST', '/api/announcements', { ...body(), ...fields });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message });
    });

    it('refuses an expiry before a scheduled time, and a deactivated person', async () => {
      const at = ctx.clock.now();
      const early = await f.as(
        'ada',
        'POST',
        '/api/announcements',
        body({
          publish: 'at',
          publishAt: new Date(at + 2 * HOUR).toISOString(),
          expiresAt: new Date(at + HOUR).toISOString(),
        }),
      );
      expect(early.statusCode).toBe(400);
      const gone = await f.as(
        'ada',
        'POST',
        '/api/announcements',
        body({ audience: audience({ userIds: [f.ids.gone] }) }),
      );
      expect(gone.json()).toMatchObject({
        message: `There is no active account with the id “${f.ids.gone}”.`,
      });
    });

    it('sanitises the text it stores', async () => {
      const a = await f.announce('ada', {
        bodyHtml: '<p>Hi<script>alert(1)</script><img src=x onerror=alert(1)></p>',
      });
      expect(a.bodyHtml).not.toMatch(/script|onerror/);
      expect(a.bodyHtml).toContain('Hi');
    });
  });

  describe('states', () => {
    it('keeps a draft from readers until it is published, then publishes it once', async () => {
      const d = await f.announce('ada', { publish: 'draft' });
      expect(d).toMatchObject({ state: 'draft', counts: null, publishedAt: null });
      expect(await f.mine('sam')).toEqual([]);
      expect((await f.as('sam', 'GET', `/api/announcements/${d.id}`)).statusCode).toBe(404);
      const edited = await f.as('ada', 'PATCH', `/api/announcements/${d.id}`, {
        revision: d.revision,
        audience: audience({ courseIds: [COURSE] }),
        title: 'Practical moved',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const published = await f.as('ada', 'PATCH', `/api/announcements/${d.id}`, {
        revision: edited.json<Announcement>().revision,
        publish: 'now',
      });
      expect(published.statusCode, published.body).toBe(200);
      expect(published.json<Announcement>()).toMatchObject({
        state: 'live',
        title: 'Practical moved',
      });
      expect(await recipients(d.id)).toEqual(['sam', 'tina']);
      expect(await f.mine('sam')).toEqual([d.id]);
    });

    it('changes only text, expiry and pinning once out, and refuses a stale change', async () => {
      const a = await f.announce('ada', {});
      const refusal = async (change: object, status: number, message: string | RegExp) => {
        const response = await f.as('ada', 'PATCH', `/api/announcements/${a.id}`, change);
        expect(response.statusCode, response.body).toBe(status);
        expect(response.json<{ message: string }>().message).toMatch(message);
      };
      await refusal(
        { revision: a.revision, audience: audience({ roles: ['student'] }) },
        409,
        /^An announcement that is out changes only/,
      );
      await refusal({ revision: a.revision, priority: 'urgent' }, 409, /changes only/);
      await refusal(
        { revision: a.revision, publish: 'now' },
        409,
        'This announcement is out already.',
      );
      const ok = await f.as('ada', 'PATCH', `/api/announcements/${a.id}`, {
        revision: a.revision,
        title: 'Elm Street open again',
        pinned: true,
        expiresAt: new Date(ctx.clock.now() + HOUR).toISOString(),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<Announcement>()).toMatchObject({
        title: 'Elm Street open again',
        pinned: true,
        revision: a.revision + 1,
      });
      await refusal({ revision: a.revision, title: 'Stale' }, 409, /changed/i);
      // Recipients are not resolved again by an edit.
      expect(await recipients(a.id)).toHaveLength(6);
    });

    it('expires from the readers’ lists at its expiry, and stays with its managers', async () => {
      const a = await f.announce('ada', {
        expiresAt: new Date(ctx.clock.now() + HOUR).toISOString(),
      });
      expect(await f.mine('sam')).toEqual([a.id]);
      ctx.clock.advance(HOUR);
      expect(await f.mine('sam')).toEqual([]);
      expect((await get('ada', a.id)).state).toBe('expired');
      const expired = await f.as('ada', 'GET', '/api/announcements?view=manage&state=expired');
      expect(expired.json<{ items: Announcement[] }>().items.map((x) => x.id)).toEqual([a.id]);
      const live = await f.as('ada', 'GET', '/api/announcements?view=manage&state=live');
      expect(live.json<{ total: number }>().total).toBe(0);
    });

    it('withdraws: readers no longer see it, it changes no more, the counts stay', async () => {
      const a = await f.announce('ada', {});
      const withdrawn = await f.as('ada', 'POST', `/api/announcements/${a.id}/withdrawal`);
      expect(withdrawn.statusCode).toBe(200);
      expect(withdrawn.json<Announcement>()).toMatchObject({ state: 'withdrawn' });
      expect(await f.mine('sam')).toEqual([]);
      expect((await f.as('sam', 'GET', `/api/announcements/${a.id}`)).statusCode).toBe(404);
      expect((await f.as('ada', 'POST', `/api/announcements/${a.id}/withdrawal`)).statusCode).toBe(
        409,
      );
      const edit = await f.as('ada', 'PATCH', `/api/announcements/${a.id}`, {
        revision: withdrawn.json<Announcement>().revision,
        title: 'x',
      });
      expect(edit.statusCode).toBe(409);
      expect((await get('ada', a.id)).counts?.recipients).toBe(6);
    });

    it('lists a reader’s announcements urgent-unacknowledged first, then pinned, then newest', async () => {
      const old = await f.announce('ada', { title: 'Old' });
      ctx.clock.advance(1000);
      const pinned = await f.announce('ada', { title: 'Pinned', pinned: true });
      ctx.clock.advance(1000);
      const urgent = await f.announce('ada', {
        title: 'Urgent',
        priority: 'urgent',
        requiresAck: true,
      });
      ctx.clock.advance(1000);
      const newest = await f.announce('ada', { title: 'Newest' });
      expect(await f.mine('sam')).toEqual([urgent.id, pinned.id, newest.id, old.id]);
      expect(await f.mine('sam', '&unacknowledged=true&priority=urgent')).toEqual([urgent.id]);
      await f.as('sam', 'POST', `/api/announcements/${urgent.id}/acknowledgement`);
      expect(await f.mine('sam')).toEqual([pinned.id, newest.id, urgent.id, old.id]);
      expect(await f.mine('sam', '&unacknowledged=true')).toEqual([]);
    });

    it('filters a reader’s list by course and by department', async () => {
      const toCourse = await f.announce('ada', { audience: audience({ courseIds: [COURSE] }) });
      const toField = await f.announce('ada', { audience: audience({ departmentIds: [FIELD] }) });
      expect(await f.mine('sam', `&courseId=${COURSE}`)).toEqual([toCourse.id]);
      expect(await f.mine('sam', `&departmentId=${FIELD}`)).toEqual([toField.id]);
    });
  });

  describe('acknowledgements and counts', () => {
    it('records “I have read this” once, marks it read and counts it', async () => {
      const a = await f.announce('ada', {
        requiresAck: true,
        audience: audience({ courseIds: [COURSE] }),
      });
      expect((await get('sam', a.id)).receipt).toMatchObject({ acknowledgedAt: null });
      const first = await f.as('sam', 'POST', `/api/announcements/${a.id}/acknowledgement`);
      expect(first.statusCode, first.body).toBe(201);
      expect(first.headers.location).toBe(`/api/announcements/${a.id}`);
      const again = await f.as('sam', 'POST', `/api/announcements/${a.id}/acknowledgement`);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      const counts = (await get('ada', a.id)).counts as AnnouncementCounts;
      expect(counts).toEqual({ recipients: 2, delivered: 1, read: 1, acknowledged: 1 });
      expect((await get('sam', a.id)).receipt?.acknowledgedAt).toBe(
        first.json<{ acknowledgedAt: string }>().acknowledgedAt,
      );
      expect(await recipients(a.id, '&acknowledged=false')).toEqual(['tina']);
      expect(await recipients(a.id, '&acknowledged=true')).toEqual(['sam']);
    });

    it('counts one acknowledgement of two sent at once', async () => {
      const a = await f.announce('ada', { requiresAck: true });
      const both = await Promise.all([
        f.as('kim', 'POST', `/api/announcements/${a.id}/acknowledgement`),
        f.as('kim', 'POST', `/api/announcements/${a.id}/acknowledgement`),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
      expect((await get('ada', a.id)).counts?.acknowledged).toBe(1);
    });

    it('refuses an acknowledgement it does not ask for, or from someone it did not reach', async () => {
      const plain = await f.announce('ada', {});
      const refused = await f.as('sam', 'POST', `/api/announcements/${plain.id}/acknowledgement`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        message: 'This announcement does not ask for an acknowledgement.',
      });
      const toCourse = await f.announce('ada', {
        requiresAck: true,
        audience: audience({ courseIds: [COURSE] }),
      });
      expect(
        (await f.as('kim', 'POST', `/api/announcements/${toCourse.id}/acknowledgement`)).statusCode,
      ).toBe(404);
    });

    it('counts delivered when a reader’s list shows it, and read when they open it', async () => {
      const a = await f.announce('ada', { audience: audience({ courseIds: [COURSE] }) });
      expect((await get('ada', a.id)).counts).toMatchObject({ delivered: 0, read: 0 });
      await f.mine('sam');
      expect((await get('ada', a.id)).counts).toMatchObject({ delivered: 1, read: 0 });
      expect((await get('tina', a.id)).receipt?.readAt).not.toBeNull();
      expect((await get('ada', a.id)).counts).toMatchObject({ delivered: 2, read: 1 });
    });

    it('exports the recipients as CSV, or only those who have not acknowledged', async () => {
      const a = await f.announce('ada', {
        requiresAck: true,
        audience: audience({ courseIds: [COURSE] }),
      });
      await f.as('sam', 'POST', `/api/announcements/${a.id}/acknowledgement`);
      const all = await f.as('ada', 'GET', `/api/announcements/${a.id}/recipients.csv`);
      expect(all.statusCode).toBe(200);
      expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(all.headers['content-disposition']).toBe(
        `attachment; filename="announcement-${a.id}.csv"`,
      );
      const lines = all.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(
        '"Username","First name","Last name","Department","Delivered","Read","Acknowledged","Reminded"',
      );
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['"sam"', '"tina"']);
      expect(lines[1]).toMatch(/^"sam","Sam","Tester","Field Operations",".+",".+",".+",$/);
      const pending = await f.as(
        'ada',
        'GET',
        `/api/announcements/${a.id}/recipients.csv?acknowledged=false`,
      );
      expect(
        pending.body
          .trim()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]),
      ).toEqual(['"tina"']);
      expect(
        (await f.as('sam', 'GET', `/api/announcements/${a.id}/recipients.csv`)).statusCode,
      ).toBe(403);
    });
  });

  describe('reminders', () => {
    it('reminds those who have not acknowledged, at most once an hour', async () => {
      const a = await f.announce('ada', {
        requiresAck: true,
        audience: audience({ courseIds: [COURSE] }),
      });
      await f.as('sam', 'POST', `/api/announcements/${a.id}/acknowledgement`);
      const first = await f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ reminded: 1 });
      // Tina got a second notification; Sam did not.
      const events = await ctx.database.db
        .selectFrom('notification_events')
        .where('source_id', '=', a.id)
        .select(['id', 'title', 'recipient_count'])
        .orderBy('id')
        .execute();
      expect(events.map((e) => [e.title, e.recipient_count])).toEqual([
        ['Elm Street closed', 2],
        ['Reminder: Elm Street closed', 1],
      ]);
      const [row] = await f
        .as('ada', 'GET', `/api/announcements/${a.id}/recipients?acknowledged=false`)
        .then((r) => r.json<AnnouncementRecipientList>().items);
      expect(row?.remindedAt).not.toBeNull();

      ctx.clock.advance(HOUR - 60_000);
      const soon = await f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`);
      expect(soon.statusCode).toBe(429);
      expect(soon.headers['retry-after']).toBe('60');
      expect(soon.json<{ message: string }>().message).toMatch(
        /^A reminder went out less than an hour ago\. The next one can go at \d\d:\d\d UTC\.$/,
      );
      ctx.clock.advance(60_000);
      expect((await f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`)).statusCode).toBe(
        200,
      );
    });

    it('sends one reminder of two asked at once', async () => {
      const a = await f.announce('ada', { requiresAck: true });
      const both = await Promise.all([
        f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`),
        f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 429]);
      const reminders = await ctx.database.db
        .selectFrom('notification_events')
        .where('source_id', '=', a.id)
        .where('title', 'like', 'Reminder:%')
        .select('id')
        .execute();
      expect(reminders).toHaveLength(1);
    });

    it('has nothing to remind of when all have acknowledged, or it asks for nothing', async () => {
      const a = await f.announce('ada', {
        requiresAck: true,
        audience: audience({ userIds: [f.ids.kim] }),
      });
      await f.as('kim', 'POST', `/api/announcements/${a.id}/acknowledgement`);
      const nobody = await f.as('ada', 'POST', `/api/announcements/${a.id}/reminders`);
      expect(nobody.statusCode).toBe(409);
      expect(nobody.json()).toMatchObject({
        message: 'Everyone it reached has acknowledged it: there is nobody to remind.',
      });
      // The refused reminder took no slot: the next one is not held back.
      expect((await get('ada', a.id)).remindedAt).toBeNull();
      const plain = await f.announce('ada', {});
      expect(
        (await f.as('ada', 'POST', `/api/announcements/${plain.id}/reminders`)).statusCode,
      ).toBe(409);
    });
  });

  describe('races', () => {
    it('publishes a draft once when two publish it at once', async () => {
      const d = await f.announce('ada', { publish: 'draft' });
      const both = await Promise.all([
        f.as('ada', 'PATCH', `/api/announcements/${d.id}`, {
          revision: d.revision,
          publish: 'now',
        }),
        f.as('ada', 'PATCH', `/api/announcements/${d.id}`, {
          revision: d.revision,
          publish: 'now',
        }),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const events = await ctx.database.db
        .selectFrom('notification_events')
        .where('source_id', '=', d.id)
        .select('recipient_count')
        .execute();
      expect(events).toEqual([{ recipient_count: 6 }]);
      expect(await recipients(d.id)).toHaveLength(6);
    });
  });
});
