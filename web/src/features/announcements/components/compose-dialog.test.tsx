import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { buildCourseDetail, buildViewer } from '../../../test/classroom-fixtures';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { announcementPage, buildAnnouncement, MANAGED } from '../testing';

const admin = buildUser({ role: 'admin' });
const instructor = buildUser({ role: 'instructor' });

describe('composing an announcement', () => {
  beforeAll(stubLayoutForEditor);

  it('publishes to everyone at once, urgent and asking for confirmation, then opens it', async () => {
    const created = buildAnnouncement({ ...MANAGED, id: 'new-1', title: 'Elm Street closed' });
    const fetch = signedInAs(admin, {
      'POST /api/announcements': { status: 201, body: created },
      'GET /api/announcements/new-1': { body: created },
      'GET /api/announcements/new-1/recipients': {
        body: { items: [], total: 0, page: 1, pageSize: 20 },
      },
      'GET /api/admin/roles': { body: { items: [] } },
      'GET /api/departments': { body: { items: [], total: 0, page: 1, pageSize: 100 } },
      'GET /api/courses': { body: { items: [], total: 0, page: 1, pageSize: 50 } },
    });
    const { user, router } = renderApp('/announcement-manager');
    await findHeading('Announcement Manager');
    await user.click(screen.getByRole('button', { name: 'New announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'New announcement' });

    // Nobody chosen yet: the form says so and sends nothing.
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Elm Street closed');
    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    expect(
      await within(dialog).findByText('Choose who the announcement is for.'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/announcements')).toHaveLength(0);

    const editor = await within(dialog).findByRole('textbox', { name: 'Text' });
    await user.click(editor);
    await user.paste('A contractor cut the feeder.');
    await user.click(within(dialog).getByRole('checkbox', { name: /^Everyone/ }));
    await user.click(within(dialog).getByRole('radio', { name: 'Urgent' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /confirm they have read it/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    await waitFor(() => expect(fetch.callsTo('POST /api/announcements')).toHaveLength(1));
    expect(fetch.callsTo('POST /api/announcements')[0]?.body).toEqual({
      title: 'Elm Street closed',
      bodyHtml: '<p>A contractor cut the feeder.</p>',
      audience: { everyone: true, roles: [], departmentIds: [], courseIds: [], userIds: [] },
      priority: 'urgent',
      pinned: false,
      requiresAck: true,
      publish: 'now',
      publishAt: null,
      expiresAt: null,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/announcement-manager/new-1'));
    expect(await findHeading('Elm Street closed')).toBeInTheDocument();
  });

  it('shows the server’s refusal of an audience', async () => {
    signedInAs(admin, {
      'POST /api/announcements': {
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'There is no course with the id “gone”.' },
      },
      'GET /api/admin/roles': { body: { items: [] } },
      'GET /api/departments': { body: { items: [], total: 0, page: 1, pageSize: 100 } },
      'GET /api/courses': { body: { items: [], total: 0, page: 1, pageSize: 50 } },
    });
    const { user } = renderApp('/announcement-manager');
    await findHeading('Announcement Manager');
    await user.click(screen.getByRole('button', { name: 'New announcement' }));
    const dialog = await screen.findByRole('dialog', { name: 'New announcement' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Hello');
    await user.click(within(dialog).getByRole('checkbox', { name: /^Everyone/ }));
    await user.click(within(dialog).getByRole('radio', { name: 'Not yet: keep it as a draft' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'There is no course with the id “gone”.',
    );
  });

  it('lets a course’s instructor announce to that course from its page', async () => {
    const course = buildCourseDetail({
      viewer: buildViewer({ canLearn: true, canEdit: true, roles: ['course-instructor'] }),
    });
    const posted = buildAnnouncement({
      ...MANAGED,
      id: 'course-ann',
      audience: {
        everyone: false,
        roles: [],
        departments: [],
        courses: [{ id: course.id, name: course.title }],
        people: [],
      },
    });
    let created = false;
    const fetch = signedInAs(instructor, {
      [`GET /api/courses/${course.id}`]: { body: course },
      'GET /api/announcements': ({ search }) => {
        const query = new URLSearchParams(search);
        const mine = query.get('view') === 'manage' && query.get('courseId') === course.id;
        return { body: announcementPage(mine && created ? [posted] : []) };
      },
      'POST /api/announcements': () => {
        created = true;
        return { status: 201, body: posted };
      },
    });
    const { user } = renderApp(`/classroom/${course.id}`);
    await findHeading(course.title);
    const section = await screen.findByRole('region', { name: 'Announcements' });
    expect(await within(section).findByText(/No announcements for/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Announce' }));
    const dialog = await screen.findByRole('dialog', { name: 'New announcement' });
    expect(within(dialog).getByText(`the people of ${course.title}`)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: /^Everyone/ })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Practical moved');
    await user.click(within(dialog).getByRole('button', { name: 'Publish now' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/announcements')[0]?.body).toMatchObject({
        title: 'Practical moved',
        audience: {
          everyone: false,
          roles: [],
          departmentIds: [],
          courseIds: [course.id],
          userIds: [],
        },
      }),
    );
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(await within(section).findByRole('button', { name: posted.title })).toBeInTheDocument();
  });
});
