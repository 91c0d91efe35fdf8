import { findWikiTemplate } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildList, buildPage, buildSpace, buildTree, NETWORK_SPACE } from '../testing';

beforeAll(stubLayoutForEditor);

const instructor = buildUser({ role: 'instructor' });
const CREATE = { create: true, manage: false };
const SPACES = {
  ...listOf([
    buildSpace(),
    { ...NETWORK_SPACE, can: CREATE },
    buildSpace({
      key: 'course:course-1',
      type: 'course',
      name: 'Fusion Splicing 101',
      courseId: 'course-1',
      can: CREATE,
    }),
  ]),
};
const created = buildPage({
  id: 'page-new',
  title: 'Splice trays',
  spaceKey: NETWORK_SPACE.key,
  spaceName: NETWORK_SPACE.name,
  revision: 1,
});

function routes(post: { status?: number; body: unknown }) {
  return {
    'GET /api/wiki/spaces': { body: SPACES },
    'GET /api/wiki/tree': {
      body: buildTree(NETWORK_SPACE, [
        { id: 'page-8', title: 'Core routers' },
        { id: 'page-9', title: 'Patch panels', parentId: 'page-8' },
      ]),
    },
    'POST /api/wiki/pages': post,
    'GET /api/wiki/pages/page-new': { body: created },
    'POST /api/wiki/pages/page-new/view': { status: 204 },
  };
}

describe('wiki page creator', () => {
  it('starts from a template, fills in the link’s space and title, and publishes under a parent', async () => {
    const fetch = signedInAs(instructor, routes({ status: 201, body: created }));
    const { user, router } = renderApp(
      '/wiki/create?space=department%3Anetwork-engineering&title=Splice%20trays',
    );
    await findHeading('Wiki Page Creator');
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveValue('Splice trays');
    const space = screen.getByRole('combobox', { name: 'Space' });
    expect(space).toHaveValue('Network Engineering');
    await user.click(space);
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(['Network Engineering', 'Fusion Splicing 101']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('radio', { name: /Procedure/ }));
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    await waitFor(() =>
      expect(
        within(box).getByRole('heading', { name: 'Required tools and materials' }),
      ).toBeVisible(),
    );

    await user.click(screen.getByRole('combobox', { name: 'Parent page (optional)' }));
    await user.click(await screen.findByRole('option', { name: '– Patch panels' }));
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    // The template's placeholders are still there: named, and asked about before publishing.
    const ask = await screen.findByRole('dialog', { name: 'Placeholders left in the text' });
    expect(ask).toHaveTextContent('These 16 placeholders from the template are still in the text');
    const left = within(ask).getByRole('list', { name: 'Placeholders left' });
    expect(within(left).getAllByRole('listitem')).toHaveLength(8);
    expect(left).toHaveTextContent('[Fusion splicer, calibrated this year]');
    expect(ask).toHaveTextContent('and 8 more.');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.callsTo('POST /api/wiki/pages')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Placeholders left in the text' }),
      ).getByRole('button', { name: 'Publish anyway' }),
    );
    await findHeading('Splice trays');
    expect(router.state.location.pathname).toBe('/wiki/pages/page-new');
    expect(fetch.callsTo('POST /api/wiki/pages')[0]?.body).toEqual({
      title: 'Splice trays',
      space: 'department:network-engineering',
      parentId: 'page-9',
      html: findWikiTemplate('procedure')!.html,
      status: 'published',
    });
  });

  it('shows the server’s refusal of a title the space already has on the title, for a draft too', async () => {
    const fetch = signedInAs(
      instructor,
      routes({
        status: 409,
        body: {
          code: 'CONFLICT',
          message: 'A page called “Core routers” already exists in this space.',
        },
      }),
    );
    const { user } = renderApp('/wiki-creator');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await user.click(title);
    await user.paste('Core routers');
    await user.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(
      await screen.findByText('A page called “Core routers” already exists in this space.'),
    ).toBeVisible();
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(fetch.callsTo('POST /api/wiki/pages')[0]?.body).toMatchObject({
      title: 'Core routers',
      // The first space the writer may create in.
      space: 'department:network-engineering',
      parentId: null,
      html: '',
      status: 'draft',
    });
  });

  it('starts from a copy of a page found by its title', async () => {
    const source = buildPage({
      id: 'page-2',
      title: 'Reading an OTDR trace',
      html: '<p>Traces.</p>',
    });
    const fetch = signedInAs(instructor, {
      ...routes({ status: 201, body: created }),
      'GET /api/wiki/pages': { body: buildList([source]) },
      'GET /api/wiki/pages/page-2': { body: source },
    });
    const { user } = renderApp('/wiki/create');
    await user.click(await screen.findByRole('radio', { name: /A copy of a page/ }));
    await user.click(screen.getByRole('combobox', { name: 'Page to copy' }));
    await user.paste('otdr');
    await user.click(
      await screen.findByRole('option', { name: 'Reading an OTDR trace · Fibre Co' }),
    );
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    await waitFor(() => expect(box).toHaveTextContent('Traces.'));
    expect(new URLSearchParams(fetch.callsTo('GET /api/wiki/pages')[0]!.search).get('search')).toBe(
      'otdr',
    );
  });

  it('says so when there is no space to write in', async () => {
    signedInAs(instructor, { 'GET /api/wiki/spaces': { body: { ...listOf([buildSpace()]) } } });
    renderApp('/wiki/create');
    expect(
      await screen.findByText('There is no wiki space where you may create pages.'),
    ).toBeVisible();
  });
});
