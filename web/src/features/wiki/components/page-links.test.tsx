import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { RichTextEditor } from '../../../components/rich-text/rich-text-editor';
import { stubLayoutForEditor } from '../../../test/assignment-fixtures';
import { mockFetch } from '../../../test/fetch-mock';
import { buildList, buildPage } from '../testing';
import { useWikiPageLinks } from './page-links';

beforeAll(stubLayoutForEditor);

function Harness() {
  const [value, setValue] = useState('');
  const pageLinks = useWikiPageLinks('department:network-engineering');
  return (
    <MantineProvider env="test">
      <RichTextEditor label="Page text" value={value} onChange={setValue} pageLinks={pageLinks} />
      <output data-testid="html">{value}</output>
    </MantineProvider>
  );
}

const html = () => screen.getByTestId('html').textContent ?? '';

describe('the editor’s "Link to page"', () => {
  it('links to a page found by its title, or to a new page by title when none has it', async () => {
    const fetch = mockFetch({
      'GET /api/wiki/pages': (request) =>
        new URLSearchParams(request.search).get('search') === 'otdr'
          ? { body: buildList([buildPage({ id: 'page-2', title: 'Reading an OTDR trace' })]) }
          : { body: buildList([]) },
    });
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(await screen.findByRole('textbox', { name: 'Page text' }));

    await user.click(screen.getByRole('button', { name: 'Link to page' }));
    let dialog = await screen.findByRole('dialog', { name: 'Link to page' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Page title' }), 'otdr');
    const found = await within(dialog).findByRole('list', { name: 'Matching pages' });
    await user.click(within(found).getByRole('button', { name: /Reading an OTDR trace/ }));
    await waitFor(() =>
      expect(html()).toMatch(
        /<a [^>]*href="\/wiki\/pages\/page-2"[^>]*>Reading an OTDR trace<\/a>/,
      ),
    );
    const asked = new URLSearchParams(fetch.callsTo('GET /api/wiki/pages')[0]!.search);
    expect(asked.get('search')).toBe('otdr');
    expect(asked.get('pageSize')).toBe('10');

    await user.click(screen.getByRole('button', { name: 'Link to page' }));
    dialog = await screen.findByRole('dialog', { name: 'Link to page' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Page title' }), 'Splice trays');
    await user.click(
      await within(dialog).findByRole('button', { name: 'Link to new page “Splice trays”' }),
    );
    await waitFor(() =>
      expect(html()).toMatch(
        /<a [^>]*href="\/wiki\/go\?space=department:network-engineering&amp;title=Splice\+trays"[^>]*>Splice trays<\/a>/,
      ),
    );
  });

  it('offers no new page for a title no page could have', async () => {
    mockFetch({ 'GET /api/wiki/pages': { body: buildList([]) } });
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(await screen.findByRole('textbox', { name: 'Page text' }));
    await user.click(screen.getByRole('button', { name: 'Link to page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link to page' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Page title' }), 'A/B');
    expect(await within(dialog).findByText('No page has a title like this.')).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: /Link to new page/ })).toBeNull();
  });
});
