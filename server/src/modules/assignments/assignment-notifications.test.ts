/**
 * What the assignments tell people: a new assignment reaches the course's learners (not its
 * teachers, not outsiders); a grade reaches its learner only once learners may see it.
 */
import type { Notification } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { sendDueReminders } from './assignment-notices';
import { classroom, type Person } from './test-fixture';

let ctx: TestContext;
let room: Awaited<ReturnType<typeof classroom>>;

beforeEach(async () => {
  ctx = await createTestApp();
  room = await classroom(ctx);
}, 60_000);

afterEach(async () => {
  await ctx.close();
});

const call = (
  who: Person,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: object,
) => ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

async function kinds(who: Person, kind: string): Promise<Notification[]> {
  const response = await call(who, 'GET', '/api/notifications');
  return (response.json() as { items: Notification[] }).items.filter((n) => n.kind === kind);
}

async function create(fields: Record<string, unknown> = {}) {
  const created = await call(room.teacher, 'POST', `/api/courses/${room.courseId}/assignments`, {
    title: 'Splice log',
    points: 20,
    dueAt: '2026-12-01T16:00:00.000Z',
    ...fields,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; revision: number };
}

async function gradeAlice(assignmentId: string, points: number) {
  const work = await call(room.alice, 'POST', `/api/assignments/${assignmentId}/submissions`, {
    textHtml: '<p>Twelve splices.</p>',
    submit: true,
  });
  expect(work.statusCode, work.body).toBe(201);
  const graded = await call(room.teacher, 'PUT', `/api/submissions/${work.json().id}/grade`, {
    points,
    feedbackHtml: '<p>Clean work.</p>',
  });
  expect(graded.statusCode, graded.body).toBe(200);
}

describe('what the assignments tell people', () => {
  it('tells the course’s learners of a new assignment, and nobody else', async () => {
    const { id } = await create();
    for (const learner of [room.alice, room.bob]) {
      const [notice] = await kinds(learner, 'assignment.new');
      expect(notice).toMatchObject({
        title: 'New assignment in Fusion splicing: Splice log',
        body: 'Due 2026-12-01 16:00 UTC.',
        link: `/classroom/${room.courseId}/assignments/${id}`,
      });
      expect(notice?.actor?.id).toBe(room.teacher.id);
    }
    for (const other of [room.teacher, room.assistant, room.outsider]) {
      expect(await kinds(other, 'assignment.new')).toEqual([]);
    }
  });

  it('tells a learner of a grade only once grades are released', async () => {
    const { id } = await create();
    await gradeAlice(id, 17);
    expect(await kinds(room.alice, 'submission.graded')).toEqual([]);
    const detail = await call(room.teacher, 'GET', `/api/assignments/${id}`);
    const released = await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      revision: detail.json().revision,
      gradesReleased: true,
    });
    expect(released.statusCode, released.body).toBe(200);
    const [notice] = await kinds(room.alice, 'submission.graded');
    expect(notice).toMatchObject({ title: 'Your grade for Splice log' });
    expect(notice?.body).toContain('17 of 20 points');
    expect(await kinds(room.bob, 'submission.graded')).toEqual([]);
  });

  it('tells a learner at once when the assignment releases grades as they are saved', async () => {
    const { id } = await create({ releaseOnSave: true });
    await gradeAlice(id, 20);
    expect(await kinds(room.alice, 'submission.graded')).toHaveLength(1);
  });

  it('reminds the learners who handed nothing in of work due within 24 hours, once', async () => {
    const dueAt = new Date(ctx.clock.now() + 20 * 3_600_000).toISOString();
    const { id } = await create({ dueAt });
    const later = await create({
      title: 'Later log',
      dueAt: new Date(ctx.clock.now() + 50 * 3_600_000).toISOString(),
    });
    const work = await call(room.alice, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>Done.</p>',
      submit: true,
    });
    expect(work.statusCode, work.body).toBe(201);

    expect(await sendDueReminders(ctx.app, ctx.database.db, ctx.clock.now())).toBe(1);
    expect(await sendDueReminders(ctx.app, ctx.database.db, ctx.clock.now())).toBe(0);
    const [reminder] = await kinds(room.bob, 'assignment.due');
    expect(reminder).toMatchObject({ title: 'Due soon: Splice log', priority: 'important' });
    expect(await kinds(room.bob, 'assignment.due')).toHaveLength(1);
    expect(await kinds(room.alice, 'assignment.due')).toEqual([]);
    expect(later.id).not.toBe(id);
  });
});
