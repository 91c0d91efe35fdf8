import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildConflict, buildPage, buildRevision, buildSpace, buildTree } from '../testing';

beforeAll(stubLayoutForEditor);

const instructor = buildUser({ role: 'instructor' });
const CAN_EDIT = { edit: true, delete: false, move: false, purge: false };
const page = buildPage({ can: CAN_EDIT });
const saved = (overrides: Parameters<typeof buildPage>[0] = {}) =>
  buildPage({
    can: CAN_EDIT,
    revision: 5,
    currentRevision: buildRevision({ number: 5 }),
    ...overrides,
  });

/** The routes of the page, its view after a save, and a PUT answering `answers` in turn. */
function routes(answers: { status?: number; body: unknown }[], start = page) {
  let n = 0;
  return {
    'GET /api/wiki/pages/page-1': { body: start },
    'GET /api/wiki/tree': { body: buildTree(buildSpace(), [{ id: 'page-1', title: start.title }]) },
    'POST /api/wiki/pages/page-1/view': { status: 204 },
    'PUT /api/wiki/pages/page-1': () => answers[Math.min(n++, answers.length - 1)]!,
  };
}

const conflictAnswer = (details = buildConflict()) => ({
  status: 409,
  body: {
    code: 'WIKI_EDIT_CONFLICT',
    message: 'Someone else saved this page while you were editing it.',
    details,
  },
});

describe('wiki editor', () => {
  it('saves the title, text and summary on the revision it loaded, then shows the page', async () => {
    const fetch = signedInAs(
      instructor,
      routes([{ body: saved({ title: 'Splicing 144 fibres' }) }]),
    );
    const { user, router } = renderApp('/wiki/pages/page-1/edit');
    await findHeading('Edit “Splicing a 144-fibre cable”');
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    expect(within(box).getByRole('heading', { name: 'Tools' })).toBeVisible();

    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.paste('Splicing 144 fibres');
    await user.click(box);
    await user.paste('Check the splicer. ');
    await user.click(screen.getByRole('textbox', { name: 'Summary of your changes' }));
    await user.paste('Shorter');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
    expect(await screen.findByText('Saved revision 5.')).toBeVisible();
    const body = fetch.callsTo('PUT /api/wiki/pages/page-1')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      baseRevision: 3,
      title: 'Splicing 144 fibres',
      summary: 'Shorter',
    });
    expect(body.html).toContain('Check the splicer.');
    expect(body).not.toHaveProperty('status');
  });

  it("asks before publishing a draft with the template's placeholders still in it", async () => {
    const draft = buildPage({
      can: CAN_EDIT,
      status: 'draft',
      html: '<h2>Tools</h2><ul><li><p>Fusion splicer</p></li><li><p>[Precision cleaver]</p></li></ul>',
    });
    const fetch = signedInAs(instructor, routes([{ body: saved() }], draft));
    const { user, router } = renderApp('/wiki/pages/page-1/edit');
    await screen.findByRole('textbox', { name: 'Page text' });
    // A draft is saved without asking; publishing asks.
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    const ask = await screen.findByRole('dialog', { name: 'Placeholders left in the text' });
    expect(ask).toHaveTextContent('This placeholder from the template is still in the text');
    expect(within(ask).getByRole('listitem')).toHaveTextContent('[Precision cleaver]');
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1')).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: 'Publish anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1')[0]?.body).toMatchObject({
      status: 'published',
    });
  });

  it('refuses a title with a slash, and shows the server’s refusal of a title the space has', async () => {
    const fetch = signedInAs(
      instructor,
      routes([
        {
          status: 409,
          body: {
            code: 'CONFLICT',
            message: 'A page called “Fibre colour codes” already exists in this space.',
          },
        },
      ]),
    );
    const { user } = renderApp('/wiki/pages/page-1/edit');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.paste('Splicing / jointing');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A title cannot contain [ ] | # / or \\')).toBeVisible();
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1')).toHaveLength(0);

    await user.clear(title);
    await user.paste('Fibre colour codes');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('A page called “Fibre colour codes” already exists in this space.'),
    ).toBeVisible();
    expect(title).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks before leaving with unsaved changes', async () => {
    signedInAs(instructor, routes([]));
    const { user, router } = renderApp('/wiki/pages/page-1/edit');
    await user.type(await screen.findByRole('textbox', { name: 'Title' }), '!');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/wiki/pages/page-1/edit');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole(
        'button',
        { name: 'Leave' },
      ),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
  });
});

describe('wiki edit conflicts', () => {
  it('shows both versions and the merge; "Keep mine" then saves the merged text on their revision', async () => {
    const fetch = signedInAs(instructor, routes([conflictAnswer(), { body: saved() }]));
    const { user, router } = renderApp('/wiki/pages/page-1/edit');
    await screen.findByRole('textbox', { name: 'Page text' });
    await user.click(screen.getByRole('textbox', { name: 'Summary of your changes' }));
    await user.paste('Gloves');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('Someone else saved this page while you were editing it.'),
    ).toBeVisible();
    const versions = screen.getByRole('region', { name: 'Both versions' });
    expect(within(versions).getByText('Their version (revision 4)')).toBeVisible();
    expect(within(versions).getByText('Wear safety glasses.')).toBeVisible();
    expect(within(versions).getByText('Your version')).toBeVisible();
    expect(within(versions).getByText('Wear gloves.')).toBeVisible();

    const merge = screen.getByRole('region', { name: 'Merged version' });
    expect(within(merge).getByText('1 conflict left to settle.')).toBeVisible();
    expect(within(merge).getByText('Clean with alcohol.')).toBeVisible();
    const save = within(merge).getByRole('button', { name: 'Save merged version' });
    expect(save).toBeDisabled();
    const conflict = within(merge).getByRole('region', { name: 'Conflict 1 of 1' });
    expect(within(conflict).getByRole('radio', { name: 'Keep theirs' })).toBeVisible();
    expect(within(conflict).getByRole('radio', { name: 'Keep both' })).toBeVisible();
    await user.click(within(conflict).getByRole('radio', { name: 'Keep mine' }));
    expect(within(merge).getByText('Every conflict is settled.')).toBeVisible();
    await user.click(save);

    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
    const puts = fetch.callsTo('PUT /api/wiki/pages/page-1');
    expect(puts).toHaveLength(2);
    expect(puts[0]?.body).toMatchObject({ baseRevision: 3 });
    expect(puts[1]?.body).toEqual({
      baseRevision: 4,
      title: 'Splicing a 144-fibre cable',
      html: '<p>Wear gloves.</p><p>Clean with alcohol.</p>',
      summary: 'Gloves',
    });
  });

  it('shows the view again at a second conflict, and takes a merged version back into the editor', async () => {
    const second = buildConflict({
      baseRevision: 4,
      current: { ...buildConflict().current, number: 5, html: '<p>Wear goggles.</p>' },
      merge: {
        title: 'Splicing a 144-fibre cable',
        blocks: [
          {
            kind: 'conflict',
            base: '<p>Wear safety glasses.</p>',
            mine: '<p>Wear gloves.</p>',
            theirs: '<p>Wear goggles.</p>',
          },
        ],
        conflicts: 1,
      },
    });
    const draft = buildPage({ can: CAN_EDIT, status: 'draft' });
    const fetch = signedInAs(
      instructor,
      routes([conflictAnswer(), conflictAnswer(second), { body: saved() }], draft),
    );
    const { user, router } = renderApp('/wiki/pages/page-1/edit');
    await screen.findByRole('textbox', { name: 'Page text' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Publish' }));

    let conflict = await screen.findByRole('region', { name: 'Conflict 1 of 1' });
    await user.click(within(conflict).getByRole('radio', { name: 'Keep both' }));
    await user.click(screen.getByRole('button', { name: 'Save merged version' }));
    // Someone saved again meanwhile: the view starts afresh on their newer revision.
    expect(await screen.findByText('Their version (revision 5)')).toBeVisible();
    conflict = screen.getByRole('region', { name: 'Conflict 1 of 1' });
    expect(within(conflict).getByRole('radio', { name: 'Keep both' })).not.toBeChecked();
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1')[1]?.body).toMatchObject({
      baseRevision: 4,
      html: '<p>Wear safety glasses.</p><p>Wear gloves.</p><p>Clean with alcohol.</p>',
      status: 'published',
    });

    await user.click(within(conflict).getByRole('radio', { name: 'Keep theirs' }));
    await user.click(screen.getByRole('button', { name: 'Edit merged version' }));
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    await waitFor(() => expect(box).toHaveTextContent('Wear goggles.'));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1')[2]?.body).toEqual({
      baseRevision: 5,
      title: 'Splicing a 144-fibre cable',
      html: '<p>Wear goggles.</p>',
      summary: '',
    });
  });
});
