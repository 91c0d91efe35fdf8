import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildDepartmentDetail, departmentRoutes } from '../testing';
import { formatDate } from '../../../lib/format';

/** The demo manager's end date, as the person's settings write dates (lib/format.ts). */
const UNTIL = formatDate('2026-12-31T12:00:00.000Z');

beforeAll(stubLayoutForEditor);

const student = buildUser({ role: 'student' });
const admin = buildUser({ role: 'admin' });

const region = (name: string) => screen.getByRole('region', { name });

describe('department page', () => {
  it('shows the description, managers, courses, library and wiki; no tools without rights', async () => {
    signedInAs(student, departmentRoutes());
    renderApp('/departments/network-engineering');
    await findHeading('Network Engineering');
    expect(screen.getByText('builds', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.queryByText('Archived')).not.toBeInTheDocument();

    expect(await within(region('Managers')).findByText(`(until ${UNTIL})`)).toBeInTheDocument();
    expect(region('Managers')).toHaveTextContent(`Mia Manager (until ${UNTIL})`);

    const courses = region('Courses');
    expect(within(courses).getByRole('link', { name: 'FIB-101 · Fibre basics' })).toHaveAttribute(
      'href',
      '/classroom/course-1',
    );
    expect(courses).toHaveTextContent('3 members enrolled · 1 completed');
    expect(
      within(courses).getByRole('progressbar', { name: 'Average progress in Fibre basics' }),
    ).toHaveAttribute('aria-valuenow', '63');
    expect(courses).toHaveTextContent('63% average');

    const library = region('Library');
    expect(within(library).getByRole('link', { name: 'Splice loss budget' })).toHaveAttribute(
      'href',
      '/library/item-1',
    );
    expect(within(library).getByRole('link', { name: 'See all (5)' })).toHaveAttribute(
      'href',
      '/library?scope=department&department=network-engineering',
    );

    const wiki = region('Wiki');
    expect(wiki).toHaveTextContent('4 pages');
    expect(within(wiki).getByRole('link', { name: 'On-call rota' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-1',
    );
    expect(within(wiki).getByRole('link', { name: 'Open the space' })).toHaveAttribute(
      'href',
      '/wiki?space=department:network-engineering',
    );

    for (const name of ['Edit description', 'Rename', 'Archive', 'Add member']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('edits the description (managers)', async () => {
    let detail = buildDepartmentDetail({ can: { manage: true, administer: false } });
    const fetch = signedInAs(student, {
      ...departmentRoutes(detail),
      'GET /api/departments/network-engineering': () => ({ body: detail }),
      'PATCH /api/departments/network-engineering': (request) => {
        detail = { ...detail, description: (request.body as { description: string }).description };
        return { body: detail };
      },
    });
    const { user } = renderApp('/departments/network-engineering');
    await user.click(await screen.findByRole('button', { name: 'Edit description' }));
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Edit description' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Description' });
    await user.click(editor);
    await user.keyboard('{Control>}a{/Control}');
    await user.paste('Runs the network.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fetch.callsTo('PATCH /api/departments/network-engineering')[0]?.body).toEqual({
        description: '<p>Runs the network.</p>',
        revision: 4,
      }),
    );
    expect(await screen.findByText('The description was saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Runs the network.')).toBeInTheDocument();
  });

  it('renames (admins) and moves to the new address; archives after confirming', async () => {
    let detail = buildDepartmentDetail({ can: { manage: true, administer: true } });
    const fetch = signedInAs(admin, {
      ...departmentRoutes(detail),
      // After the rename the page's own reload takes a while, as on a network: the old name's
      // resolution (asked again meanwhile) must not take the page, and its dialog, away first.
      'GET /api/departments/network-engineering': async () => {
        if (detail.slug !== 'network-engineering') await new Promise((r) => setTimeout(r, 200));
        return { body: detail };
      },
      // As the server: a former name answers the department's current one.
      'GET /api/departments/lookup/network-engineering': () => ({
        body: { id: detail.id, slug: detail.slug },
      }),
      'PATCH /api/departments/network-engineering': (request) => {
        const body = request.body as { name?: string; archived?: boolean };
        if (body.name) detail = { ...detail, name: body.name, slug: 'fibre-engineering' };
        if (body.archived !== undefined) {
          detail = { ...detail, archivedAt: body.archived ? '2026-11-26T12:00:00.000Z' : null };
        }
        detail = { ...detail, revision: detail.revision + 1 };
        return { body: detail };
      },
    });
    const { user, router } = renderApp('/departments/network-engineering');
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename department' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Fibre Engineering');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await findHeading('Fibre Engineering');
    expect(router.state.location.pathname).toBe('/departments/fibre-engineering');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(fetch.callsTo('PATCH /api/departments/network-engineering')[0]?.body).toEqual({
      name: 'Fibre Engineering',
      revision: 4,
    });
    // The new name resolved without asking the server.
    expect(fetch.callsTo('GET /api/departments/lookup/fibre-engineering')).toHaveLength(0);
    expect(screen.getByText('The department is now called Fibre Engineering.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Archive' }));
    const confirm = await screen.findByRole('dialog', { name: 'Archive the department?' });
    await user.click(within(confirm).getByRole('button', { name: 'Archive' }));
    await waitFor(() =>
      // At the revision the rename answered, reloaded with the page.
      expect(fetch.callsTo('PATCH /api/departments/network-engineering')[1]?.body).toEqual({
        archived: true,
        revision: 5,
      }),
    );
    expect(await screen.findByRole('button', { name: 'Unarchive' })).toBeInTheDocument();
    expect(screen.getAllByText('Archived').length).toBeGreaterThan(0);
    // Nothing is managed in an archived department.
    expect(screen.queryByRole('button', { name: 'Edit description' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument();
  });
});
