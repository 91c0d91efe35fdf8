import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { buildCustomRole, buildRoles } from '../testing';

const admin = buildUser({ role: 'admin' });
const trainer = buildCustomRole();
const withTrainer = buildRoles([trainer], { 'field-trainer': 2 });
const trainerView = withTrainer.items.find((r) => r.id === 'field-trainer')!;

async function openRoles(more: MockRoutes = {}) {
  const fetchMock = signedInAs(admin, { 'GET /api/admin/roles': { body: withTrainer }, ...more });
  const view = renderApp('/admin/roles');
  await screen.findByRole('heading', { level: 2, name: 'System roles' });
  return { fetchMock, ...view };
}

describe('admin: roles', () => {
  it('shows the system roles read-only', async () => {
    await openRoles();
    for (const name of ['Administrator', 'Instructor', 'Student']) {
      const card = screen.getByRole('region', { name });
      expect(within(card).getByText('System role — read only')).toBeInTheDocument();
      expect(within(card).queryByRole('button')).not.toBeInTheDocument();
    }
    const instructor = screen.getByRole('region', { name: 'Instructor' });
    expect(instructor).toHaveTextContent('Inherits: Student');
    expect(instructor).toHaveTextContent('All permissions: 29');
    expect(within(instructor).getByText('analytics.view')).toBeInTheDocument();
    expect(within(instructor).queryByText('course.view')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Administrator' })).toHaveTextContent(
      'Every permission',
    );
  });

  it('lists custom roles with what they add and who holds them', async () => {
    await openRoles();
    const table = screen.getByRole('table', { name: 'Custom roles' });
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('Field trainer');
    expect(cells[1]).toHaveTextContent('Instructor');
    expect(cells[2]).toHaveTextContent('analytics.export');
    expect(cells[3]).toHaveTextContent('30');
    expect(cells[4]).toHaveTextContent('2');
  });

  it('creates a custom role after checking its id', async () => {
    const created = { ...trainerView, id: 'crew-lead', displayName: 'Crew lead' };
    const { fetchMock, user } = await openRoles({
      'POST /api/admin/roles': { status: 201, body: created },
    });
    await user.click(screen.getByRole('button', { name: 'Create role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a custom role' });
    await user.type(within(dialog).getByLabelText(/Role id/), 'Crew Lead');
    await user.type(within(dialog).getByLabelText(/Display name/), 'Crew lead');
    await user.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(
      await within(dialog).findByText(
        'Use lower-case letters, digits and hyphens, e.g. field-trainer',
      ),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/roles')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/Role id/));
    await user.type(within(dialog).getByLabelText(/Role id/), 'crew-lead');
    // Inherits: student, instructor or a custom role, never admin.
    await user.click(within(dialog).getByRole('combobox', { name: /Inherits from/ }));
    expect(screen.queryByRole('option', { name: 'Administrator' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Field trainer' }));
    const permissions = within(dialog).getByRole('combobox', { name: /Permissions to add/ });
    await user.click(permissions);
    // Inherited ones cannot be added again.
    expect(screen.getByRole('option', { name: /analytics\.export \(inherited\)/ })).toHaveAttribute(
      'data-combobox-disabled',
    );
    await user.type(permissions, 'library.man');
    await user.click(screen.getByRole('option', { name: /library\.manage/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(await screen.findByText('Role created')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/roles')[0]?.body).toEqual({
      id: 'crew-lead',
      displayName: 'Crew lead',
      description: '',
      inherits: 'field-trainer',
      permissions: ['library.manage'],
      priority: 20,
    });
    await waitFor(() => expect(fetchMock.callsTo('GET /api/admin/roles')).toHaveLength(2));
  });

  it('edits a custom role (its id stays)', async () => {
    const { fetchMock, user } = await openRoles({
      'PUT /api/admin/roles/field-trainer': { body: { ...trainerView, displayName: 'Trainer' } },
    });
    await user.click(screen.getByRole('button', { name: 'Edit Field trainer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit role: Field trainer' });
    expect(within(dialog).getByLabelText(/Role id/)).toHaveAttribute('readonly');
    const name = within(dialog).getByLabelText(/Display name/);
    await user.clear(name);
    await user.type(name, 'Trainer');
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Trainer was updated.')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/roles/field-trainer')[0]?.body).toEqual({
      displayName: 'Trainer',
      description: 'Trains field crews.',
      inherits: 'instructor',
      permissions: ['analytics.export'],
      priority: 20,
    });
  });

  it("shows the server's reason when a role cannot be deleted", async () => {
    const { fetchMock, user } = await openRoles({
      'DELETE /api/admin/roles/field-trainer': {
        status: 409,
        body: {
          code: 'CONFLICT',
          message: '2 users still hold this role; give them another role first',
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Delete Field trainer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Field trainer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '2 users still hold this role; give them another role first',
    );
    expect(fetchMock.callsTo('DELETE /api/admin/roles/field-trainer')).toHaveLength(1);
  });

  it('deletes an unused custom role', async () => {
    const { fetchMock, user } = await openRoles({
      'DELETE /api/admin/roles/field-trainer': { status: 204 },
    });
    await user.click(screen.getByRole('button', { name: 'Delete Field trainer' }));
    const dialog = await screen.findByRole('dialog');
    fetchMock.set({ 'GET /api/admin/roles': { body: buildRoles() } });
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect(await screen.findByText('No custom roles yet.')).toBeInTheDocument();
  });
});
