import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, listOf } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { buildDepartmentDetail, departmentRoutes, LEE, memberList, MIA, SAM } from '../testing';
import { endOfDayIso } from '../../../components/date-field';
import { formatDate } from '../../../lib/format';

/** The demo manager's end date, as the person's settings write dates (lib/format.ts). */
const UNTIL = formatDate('2026-12-31T12:00:00.000Z');

const student = buildUser({ role: 'student' });
const manager = buildDepartmentDetail({ can: { manage: true, administer: false } });
const MEMBERS = 'GET /api/departments/network-engineering/members';

const membersTable = () => screen.findByRole('table', { name: 'Members' });

describe('department members', () => {
  it('lists name, role, username, membership and end; search and page go to the URL and the server', async () => {
    const fetch = signedInAs(student, {
      ...departmentRoutes(),
      [MEMBERS]: { body: { ...memberList([MIA, LEE, SAM], 45) } },
    });
    const { user, router } = renderApp('/departments/network-engineering');
    const table = await membersTable();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Mia Manager', 'ManagerMember', 'mia', 'Assigned', `until ${UNTIL}`],
      ['Lee Learner', 'Member', 'lee', 'Assigned', 'No end date'],
      ['Sam Student', 'Member', 'student', 'By account', '—'],
    ]);
    expect(screen.getByText('45 members')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Search members' }), 'lee');
    await waitFor(() =>
      expect(new URLSearchParams(fetch.callsTo(MEMBERS).at(-1)?.search).get('search')).toBe('lee'),
    );
    expect(router.state.location.search).toBe('?search=lee');
    await user.click(
      within(screen.getByRole('navigation', { name: 'Member pages' })).getByRole('button', {
        name: 'Page 3',
      }),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?search=lee&page=3'));
    const asked = new URLSearchParams(fetch.callsTo(MEMBERS).at(-1)?.search);
    expect([asked.get('search'), asked.get('page'), asked.get('pageSize')]).toEqual([
      'lee',
      '3',
      '20',
    ]);
  });

  it('stacks the members on a phone', async () => {
    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === '(max-width: 48em)',
    }));
    signedInAs(student, departmentRoutes(manager));
    renderApp('/departments/network-engineering');
    const list = await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('table', { name: 'Members' })).not.toBeInTheDocument();
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Mia Manager');
    expect(items[0]).toHaveTextContent(`Assigned · until ${UNTIL}`);
    expect(items[2]).toHaveTextContent('By account');
    expect(
      within(items[1]!).getByRole('button', { name: 'Remove Lee Learner' }),
    ).toBeInTheDocument();
  });

  it('adds a person found by name with a role and an end date', async () => {
    const fetch = signedInAs(student, {
      ...departmentRoutes(manager),
      'GET /api/departments/network-engineering/candidates': {
        body: {
          ...listOf([
            {
              id: 'u-pat',
              username: 'pat',
              name: 'Pat Newman',
              departmentName: 'Field Operations',
              member: false,
            },
            {
              id: 'u-lee',
              username: 'lee',
              name: 'Lee Learner',
              departmentName: null,
              member: true,
            },
          ]),
        },
      },
      'POST /api/departments/network-engineering/members': {
        status: 201,
        body: { ...LEE, id: 'u-pat', username: 'pat', firstname: 'Pat', lastname: 'Newman' },
      },
    });
    const { user } = renderApp('/departments/network-engineering');
    await membersTable();
    const membersAsked = fetch.callsTo(MEMBERS).length;
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    expect(within(dialog).getByRole('button', { name: 'Add member' })).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Search people' }), 'pa');
    const found = await within(dialog).findByRole('list', { name: 'People found' });
    await waitFor(() =>
      expect(
        fetch.callsTo('GET /api/departments/network-engineering/candidates').at(-1)?.search,
      ).toBe('?search=pa'),
    );
    expect(found).toHaveTextContent('Field Operations');
    expect(
      within(found).getByRole('button', { name: 'Choose Lee Learner (lee), already a member' }),
    ).toHaveTextContent('Already a member');
    await user.click(within(found).getByRole('button', { name: 'Choose Pat Newman (pat)' }));
    expect(within(dialog).getByText(/Adding Pat Newman/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'Manager' }));
    // The calendar's own buttons have names (Mantine leaves them unnamed).
    await user.click(within(dialog).getByRole('textbox', { name: /End date/ }));
    expect(await screen.findByRole('button', { name: 'Next month' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /End date/ }), '31 Dec 2099');
    expect(within(dialog).getByRole('button', { name: 'Clear the end date' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/departments/network-engineering/members')[0]?.body).toEqual({
        userId: 'u-pat',
        role: 'department-manager',
        expiresAt: endOfDayIso('2099-12-31'),
      }),
    );
    expect(await screen.findByText('Pat Newman was added to Network Engineering.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(fetch.callsTo(MEMBERS).length).toBeGreaterThan(membersAsked));
  });

  it("changes a member's role; removing a member by account shows the server's refusal", async () => {
    const fetch = signedInAs(student, {
      ...departmentRoutes(manager),
      'PATCH /api/departments/network-engineering/members/u-lee': {
        body: { ...LEE, roles: ['department-member', 'department-manager'] },
      },
      'DELETE /api/departments/network-engineering/members/user-student': {
        status: 409,
        body: {
          code: 'CONFLICT',
          message:
            'Sam Student belongs to Network Engineering through their account: change the department on the account instead.',
        },
      },
    });
    const { user } = renderApp('/departments/network-engineering');
    await membersTable();

    await user.click(
      screen.getByRole('button', { name: 'Change role or end date of Lee Learner' }),
    );
    const edit = await screen.findByRole('dialog', { name: 'Role of Lee Learner' });
    expect(within(edit).getByRole('radio', { name: 'Member' })).toBeChecked();
    await user.click(within(edit).getByRole('radio', { name: 'Manager' }));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        fetch.callsTo('PATCH /api/departments/network-engineering/members/u-lee')[0]?.body,
      ).toEqual({ role: 'department-manager', expiresAt: null }),
    );
    expect(await screen.findByText('The role of Lee Learner was saved.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Remove Sam Student' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove from the department?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Sam Student belongs to Network Engineering through their account: change the department on the account instead.',
    );
    expect(screen.getByRole('dialog', { name: 'Remove from the department?' })).toBeVisible();
  });
});
