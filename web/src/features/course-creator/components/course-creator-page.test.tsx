import { screen, waitFor, within } from '@testing-library/react';
import { STALE_REVISION_MESSAGE } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildAssignment } from '../../../test/assignment-fixtures';
import { buildCourseDetail, teacherViewer } from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const instructor = buildUser({ role: 'instructor' });
const draft = buildCourseDetail({ state: 'draft', viewer: teacherViewer(), publishedAt: null });
const DEPARTMENTS = {
  ...listOf([
    {
      id: 'network-engineering',
      name: 'Network Engineering',
      description: '',
      memberCount: 3,
      revision: 1,
    },
  ]),
};

type Order = { sections: { id: string; lessonIds: string[] }[] };
function reordered(order: Order) {
  const lessons = draft.sections.flatMap((s) => s.lessons);
  return {
    ...draft,
    sections: order.sections.map((o, position) => ({
      ...draft.sections.find((s) => s.id === o.id)!,
      position,
      lessons: o.lessonIds.map((id, i) => ({
        ...lessons.find((l) => l.id === id)!,
        sectionId: o.id,
        position: i,
      })),
    })),
  };
}

function open(path: string, routes: MockRoutes = {}) {
  const fetchMock = signedInAs(instructor, {
    'GET /api/departments': { body: DEPARTMENTS },
    'GET /api/courses/course-1': { body: draft },
    ...routes,
  });
  return { fetchMock, ...renderApp(path) };
}

describe('course creator', () => {
  it('creates a draft from only a code and a title, then edits it at ?course=<id>', async () => {
    const created = buildCourseDetail({
      id: 'course-9',
      code: 'SPL-200',
      title: 'Fusion splicing',
      state: 'draft',
      viewer: teacherViewer(),
      sections: [],
    });
    const { fetchMock, user, router } = open('/course/create', {
      'POST /api/courses': { status: 201, body: created },
      'GET /api/courses/course-9': { body: created },
    });
    await findHeading('Course Creator');
    await user.type(screen.getByRole('textbox', { name: /Course code/ }), 'SPL-200');
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Fusion splicing');
    await user.click(screen.getByRole('button', { name: 'Create draft' }));
    await waitFor(() => expect(router.state.location.search).toBe('?course=course-9'));
    expect(router.state.location.pathname).toBe('/course/create');
    const body = fetchMock.callsTo('POST /api/courses')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      code: 'SPL-200',
      title: 'Fusion splicing',
      enrolmentMode: 'open',
    });
    expect(await screen.findByText('SPL-200 · Fusion splicing')).toBeInTheDocument();
  });

  it("explains what is wrong with the code and the title, and doesn't post", async () => {
    const { fetchMock, user } = open('/course-creator');
    await findHeading('Course Creator');
    await user.type(screen.getByRole('textbox', { name: /Course code/ }), 'bad code!');
    await user.click(screen.getByRole('button', { name: 'Create draft' }));
    expect(
      await screen.findByText(
        'The code is 1–40 letters, digits, dots, dashes or underscores and starts with a letter or digit',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Enter the title')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/courses')).toHaveLength(0);
  });

  it('saves the basics on its own with the revision and shows the status', async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'PATCH /api/courses/course-1': ({ body }) => ({
        body: { ...draft, ...(body as object), revision: 4 },
      }),
    });
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'OTDR basics');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    expect(await screen.findByText('Saved', {}, { timeout: 5000 })).toBeInTheDocument();
    const calls = fetchMock.callsTo('PATCH /api/courses/course-1');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({ title: 'OTDR basics', revision: 3, code: 'OTDR-101' });

    // An invalid value is not sent; the status says why.
    await user.clear(title);
    expect(await screen.findByText("Couldn't save: Enter the title")).toBeInTheDocument();
  });

  it('offers a reload when the course was changed elsewhere (409)', async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'PATCH /api/courses/course-1': {
        status: 409,
        body: { code: 'CONFLICT', message: STALE_REVISION_MESSAGE },
      },
    });
    const title = await screen.findByRole('textbox', { name: /^Title/ });
    await user.type(title, ' (new)');
    expect(
      await screen.findByText(
        `Couldn't save: ${STALE_REVISION_MESSAGE} Your changes are still here, unsaved. Reload shows their version instead and discards yours.`,
        {},
        {
          timeout: 5000,
        },
      ),
    ).toBeInTheDocument();
    fetchMock.set({
      'GET /api/courses/course-1': { body: { ...draft, title: 'Changed elsewhere', revision: 7 } },
    });
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /^Title/ })).toHaveValue('Changed elsewhere'),
    );
  });

  it('reorders lessons with the Move buttons (also into the next section) and saves the outline', async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      // The server answers with the course in the order it was sent.
      'PUT /api/courses/course-1/outline': ({ body }) => ({ body: reordered(body as Order) }),
    });
    await screen.findByText('OTDR-101 · Fibre testing with an OTDR');
    await user.click(screen.getByRole('button', { name: /Structure/ }));
    await user.click(
      await screen.findByRole('button', { name: 'Move down: What an OTDR measures' }),
    );
    await waitFor(() =>
      expect(fetchMock.callsTo('PUT /api/courses/course-1/outline')).toHaveLength(1),
    );
    expect(fetchMock.callsTo('PUT /api/courses/course-1/outline')[0]?.body).toEqual({
      sections: [
        { id: 'section-1', lessonIds: ['lesson-2', 'lesson-1'] },
        { id: 'section-2', lessonIds: ['lesson-3'] },
      ],
    });
    const outline = () =>
      fetchMock.callsTo('PUT /api/courses/course-1/outline').map((c) => c.body as Order);
    async function press(name: string, calls: number) {
      await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
      await user.click(screen.getByRole('button', { name }));
      await waitFor(() => expect(outline()).toHaveLength(calls));
    }
    // Back down within its section, then down again: into the start of the next section.
    await press('Move down: Launch cables', 2);
    await press('Move down: Launch cables', 3);
    expect(outline()[2]).toEqual({
      sections: [
        { id: 'section-1', lessonIds: ['lesson-1'] },
        { id: 'section-2', lessonIds: ['lesson-2', 'lesson-3'] },
      ],
    });
    await press('Move up: Traces', 4);
    expect(outline()[3]).toEqual({
      sections: [
        { id: 'section-2', lessonIds: ['lesson-2', 'lesson-3'] },
        { id: 'section-1', lessonIds: ['lesson-1'] },
      ],
    });
  });

  it('deletes a section after confirmation', async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'DELETE /api/courses/course-1/sections/section-2': { status: 204 },
    });
    await screen.findByText('OTDR-101 · Fibre testing with an OTDR');
    await user.click(screen.getByRole('button', { name: /Structure/ }));
    await user.click(await screen.findByRole('button', { name: 'Delete: Traces' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete section "Traces"?' });
    expect(fetchMock.callsTo('DELETE /api/courses/course-1/sections/section-2')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('DELETE /api/courses/course-1/sections/section-2')).toHaveLength(1),
    );
  });

  it('publishes from the checklist step, then offers the course page; a draft has no Archive', async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'PATCH /api/courses/course-1': { body: { ...draft, state: 'published', revision: 4 } },
    });
    await screen.findByText('OTDR-101 · Fibre testing with an OTDR');
    await user.click(screen.getByRole('button', { name: /Publish/ }));
    expect(await screen.findByText(/Has at least one lesson: done/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View course' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(fetchMock.callsTo('PATCH /api/courses/course-1')).toHaveLength(1));
    expect(fetchMock.callsTo('PATCH /api/courses/course-1')[0]?.body).toEqual({
      state: 'published',
      revision: 3,
    });
    expect(await screen.findByRole('button', { name: 'Unpublish' })).toBeInTheDocument();
    const view = screen.getByRole('link', { name: 'View course' });
    expect(view).toHaveAttribute('href', '/classroom/course-1');
    await waitFor(() => expect(view).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Archive' })).toBeInTheDocument();
  });

  it("lists and creates assignments in the Assignments step, with the course page's editor", async () => {
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'GET /api/courses/course-1/assignments': {
        body: { ...listOf([buildAssignment({ toGrade: 0 })]) },
      },
      'POST /api/courses/course-1/assignments': {
        status: 201,
        body: {
          ...buildAssignment({ id: 'a-2', title: 'Splice log' }),
          courseTitle: 'x',
          attachments: [],
        },
      },
    });
    await screen.findByText('OTDR-101 · Fibre testing with an OTDR');
    await user.click(screen.getByRole('button', { name: /Assignments/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Assignments' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Assignments' });
    expect(within(table).getByRole('link', { name: 'Trace report' })).toHaveAttribute(
      'href',
      '/classroom/course-1/assignments/assignment-1',
    );
    await user.click(screen.getByRole('button', { name: 'New assignment' }));
    const dialog = await screen.findByRole('dialog', { name: 'New assignment' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Splice log');
    await user.click(within(dialog).getByRole('button', { name: 'Create assignment' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')).toHaveLength(1),
    );
    expect(fetchMock.callsTo('POST /api/courses/course-1/assignments')[0]?.body).toMatchObject({
      title: 'Splice log',
    });
  });

  it('shows an archived course its publish step only, where its editor restores it', async () => {
    const archived = {
      ...draft,
      state: 'archived' as const,
      viewer: teacherViewer({ canEdit: false, canRestore: true }),
    };
    const { fetchMock, user } = open('/course-creator?course=course-1', {
      'GET /api/courses/course-1': { body: archived },
      'PATCH /api/courses/course-1': { body: { ...draft, revision: 4 } },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Publish' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Basics/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View course' })).toHaveAttribute(
      'href',
      '/classroom/course-1',
    );
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(fetchMock.callsTo('PATCH /api/courses/course-1')).toHaveLength(1));
    expect(fetchMock.callsTo('PATCH /api/courses/course-1')[0]?.body).toEqual({
      state: 'draft',
      revision: 3,
    });
    // A draft again: the whole creator.
    expect(await screen.findByRole('textbox', { name: /^Title/ })).toBeInTheDocument();
  });

  it('sends someone who may not edit the course to its page, saying why', async () => {
    const { router } = open('/course-creator?course=course-1', {
      'GET /api/courses/course-1': {
        body: buildCourseDetail({ viewer: teacherViewer({ canEdit: false }) }),
      },
    });
    await findHeading('Fibre testing with an OTDR');
    expect(router.state.location.pathname).toBe('/classroom/course-1');
    expect(
      screen.getByText(
        'You do not have access to Course Creator: Missing required permission: course.edit',
      ),
    ).toBeInTheDocument();
  });
});
