import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildDepartmentDetail, departmentRoutes } from '../testing';

beforeAll(stubLayoutForEditor);

const student = buildUser({ role: 'student' });
const admin = buildUser({ role: 'admin' });

const networkEngineering = {
  id: 'network-engineering',
  slug: 'network-engineering',
  name: 'Network Engineering',
  description: '<p>Designs and <strong>builds</strong> the fibre network.</p><p>Second part.</p>',
  memberCount: 12,
  managers: [
    { id: 'u-mia', name: 'Mia Manager' },
    { id: 'u-max', name: 'Max Manager' },
  ],
  archivedAt: null,
  revision: 1,
};
const oldDepot = {
  id: 'dept-7',
  slug: 'old-depot',
  name: 'Old Depot',
  description: '',
  memberCount: 1,
  managers: [],
  archivedAt: '2025-06-01T09:00:00.000Z',
  revision: 1,
};

describe('departments list', () => {
  it('shows the departments with an excerpt, members and managers; no admin tools for a student', async () => {
    const fetch = signedInAs(student, {
      'GET /api/departments': { body: { ...listOf([networkEngineering]) } },
    });
    renderApp('/departments');
    await findHeading('Departments');
    const card = await screen.findByRole('article', { name: 'Network Engineering' });
    expect(within(card).getByRole('link', { name: 'Network Engineering' })).toHaveAttribute(
      'href',
      '/departments/network-engineering',
    );
    expect(card).toHaveTextContent('Designs and builds the fibre network. Second part.');
    expect(card).toHaveTextContent('12 members');
    expect(card).toHaveTextContent('Managers: Mia Manager, Max Manager');
    expect(within(card).queryByText('Archived')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New department' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Show archived' })).not.toBeInTheDocument();
    expect(fetch.callsTo('GET /api/departments')[0]?.search).toBe('');
  });

  it('lets an admin show the archived departments, kept in the URL', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/departments': (request) => ({
        body: listOf(
          request.search.includes('archived=true')
            ? [networkEngineering, oldDepot]
            : [networkEngineering],
        ),
      }),
    });
    const { user, router } = renderApp('/departments');
    await screen.findByRole('article', { name: 'Network Engineering' });
    expect(screen.getByRole('button', { name: 'New department' })).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Show archived' }));
    const archived = await screen.findByRole('article', { name: 'Old Depot' });
    expect(within(archived).getByText('Archived')).toBeInTheDocument();
    expect(within(archived).getByRole('link', { name: 'Old Depot' })).toHaveAttribute(
      'href',
      '/departments/old-depot',
    );
    expect(archived).toHaveTextContent('No managers');
    expect(router.state.location.search).toBe('?archived=true');
    expect(fetch.callsTo('GET /api/departments').at(-1)?.search).toBe('?archived=true');
  });

  it('creates a department and opens it; a name already taken shows on the name field', async () => {
    let taken = true;
    const created = buildDepartmentDetail({
      id: 'dept-9',
      slug: 'splicing-crew',
      name: 'Splicing Crew',
      description: '<p>Joins fibres.</p>',
      can: { manage: true, administer: true },
    });
    const fetch = signedInAs(admin, {
      'GET /api/departments': { body: { ...listOf([networkEngineering]) } },
      'POST /api/departments': () =>
        taken
          ? { status: 409, body: { code: 'CONFLICT', message: 'A department is called that.' } }
          : { status: 201, body: created },
      ...departmentRoutes(created, []),
    });
    const { user, router } = renderApp('/departments');
    await user.click(await screen.findByRole('button', { name: 'New department' }));
    const dialog = await screen.findByRole('dialog', { name: 'New department' });
    await user.click(within(dialog).getByRole('button', { name: 'Create department' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'The name is required',
    );
    expect(fetch.callsTo('POST /api/departments')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Splicing Crew');
    await user.click(await within(dialog).findByRole('textbox', { name: 'Description' }));
    await user.paste('Joins fibres.');
    await user.click(within(dialog).getByRole('button', { name: 'Create department' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
        'A department is called that.',
      ),
    );
    expect(fetch.callsTo('POST /api/departments')[0]?.body).toEqual({
      name: 'Splicing Crew',
      description: '<p>Joins fibres.</p>',
    });

    taken = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create department' }));
    await findHeading('Splicing Crew');
    expect(router.state.location.pathname).toBe('/departments/splicing-crew');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      await screen.findByText('The department Splicing Crew was created.'),
    ).toBeInTheDocument();
  });
});
