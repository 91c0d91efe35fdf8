import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from '../../../lib/use-phone';
import { buildCourseDetail, teacherViewer } from '../../../test/classroom-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { endOfDayIso } from '../../../components/date-field';

const instructor = buildUser({ role: 'instructor' });

const members = [
  {
    id: 'u-lee',
    username: 'lee',
    firstname: 'Lee',
    lastname: 'Learner',
    roles: ['course-student'],
    expiresAt: '2025-12-31T22:59:59.999Z',
    progress: { completedLessons: 2, totalLessons: 3, percent: 66 },
  },
  {
    id: 'u-ana',
    username: 'ana',
    firstname: 'Ana',
    lastname: 'Assistant',
    roles: ['course-assistant'],
    expiresAt: null,
    progress: null,
  },
];

function routes(viewer = teacherViewer()) {
  return {
    'GET /api/courses/course-1': { body: buildCourseDetail({ viewer }) },
    'GET /api/courses/course-1/participants': { body: listOf(members) },
    'GET /api/courses/course-1/candidates': {
      body: { ...listOf([{ id: 'u-pat', username: 'pat', firstname: 'Pat', lastname: 'Newman' }]) },
    },
    'PUT /api/courses/course-1/participants/u-pat': {
      body: { ...members[0], id: 'u-pat', username: 'pat', firstname: 'Pat', lastname: 'Newman' },
    },
    'PUT /api/courses/course-1/participants/u-lee': { body: members[0] },
    'DELETE /api/courses/course-1/participants/u-ana': { status: 204 },
  };
}

describe('participants', () => {
  it('lists names, roles, end dates and progress; read-only without manage rights', async () => {
    signedInAs(instructor, routes(teacherViewer({ canManageParticipants: false })));
    renderApp('/classroom/course-1?tab=participants');
    const table = await screen.findByRole('table', { name: 'Participants' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Lee Learner')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Student')).toBeInTheDocument();
    expect(
      within(rows[0]!).getByRole('progressbar', { name: 'Progress of Lee Learner' }),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Assistant')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('No end')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add people' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  });

  it('shows one card per person on a phone, with the same actions', async () => {
    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY,
    }));
    signedInAs(instructor, routes());
    renderApp('/classroom/course-1?tab=participants');
    const list = await screen.findByRole('list', { name: 'Participants' });
    expect(screen.queryByRole('table', { name: 'Participants' })).not.toBeInTheDocument();
    const [lee] = within(list).getAllByRole('listitem');
    expect(lee).toHaveTextContent('Lee Learner');
    expect(lee).toHaveTextContent('Student');
    expect(
      within(lee!).getByRole('button', { name: 'Change roles of Lee Learner' }),
    ).toBeInTheDocument();
  });

  it('adds a person found by search with the chosen roles and end date', async () => {
    const fetch = signedInAs(instructor, routes());
    const { user } = renderApp('/classroom/course-1?tab=participants');
    await screen.findByRole('table', { name: 'Participants' });
    await user.click(screen.getByRole('button', { name: 'Add people' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add people' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Search people' }), 'pat');
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/courses/course-1/candidates').at(-1)?.search).toBe(
        '?search=pat',
      ),
    );
    expect(within(dialog).getByRole('button', { name: 'Add to course' })).toBeDisabled();
    await user.click(
      await within(dialog).findByRole('button', { name: 'Choose Pat Newman (pat)' }),
    );
    expect(within(dialog).getByText(/Adding Pat Newman/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Assistant' }));
    await user.type(within(dialog).getByRole('textbox', { name: /End date/ }), '31 Dec 2099');
    await user.click(within(dialog).getByRole('button', { name: 'Add to course' }));
    await waitFor(() =>
      expect(fetch.callsTo('PUT /api/courses/course-1/participants/u-pat')).toHaveLength(1),
    );
    expect(fetch.callsTo('PUT /api/courses/course-1/participants/u-pat')[0]?.body).toEqual({
      roles: ['course-student', 'course-assistant'],
      endsAt: endOfDayIso('2099-12-31'),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's refusal in the dialog", async () => {
    const fetch = signedInAs(instructor, {
      ...routes(),
      'PUT /api/courses/course-1/participants/u-pat': {
        status: 409,
        body: { code: 'CONFLICT', message: 'The course is full.' },
      },
    });
    const { user } = renderApp('/classroom/course-1?tab=participants');
    await screen.findByRole('table', { name: 'Participants' });
    await user.click(screen.getByRole('button', { name: 'Add people' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add people' });
    await user.click(
      await within(dialog).findByRole('button', { name: 'Choose Pat Newman (pat)' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add to course' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The course is full.');
    expect(fetch.callsTo('PUT /api/courses/course-1/participants/u-pat')[0]?.body).toEqual({
      roles: ['course-student'],
      endsAt: null,
    });
  });

  it('changes roles and removes a participant after confirming', async () => {
    const fetch = signedInAs(instructor, routes());
    const { user } = renderApp('/classroom/course-1?tab=participants');
    await screen.findByRole('table', { name: 'Participants' });

    await user.click(screen.getByRole('button', { name: 'Change roles of Lee Learner' }));
    const edit = await screen.findByRole('dialog', { name: 'Roles of Lee Learner' });
    expect(within(edit).getByRole('checkbox', { name: 'Student' })).toBeChecked();
    await user.click(within(edit).getByRole('checkbox', { name: 'Instructor' }));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fetch.callsTo('PUT /api/courses/course-1/participants/u-lee')[0]?.body).toEqual({
        roles: ['course-student', 'course-instructor'],
        // The day the current end falls on where the user is, to the end of that day.
        endsAt: endOfDayIso(dayjs(members[0]!.expiresAt).format('YYYY-MM-DD')),
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Remove Ana Assistant' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove from the course?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(fetch.callsTo('DELETE /api/courses/course-1/participants/u-ana')).toHaveLength(1),
    );
  });
});
