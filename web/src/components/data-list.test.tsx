import { Button, MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../app/theme';
import { PHONE_QUERY } from '../lib/use-phone';
import { DataList, type DataListColumn } from './data-list';

interface Book {
  id: string;
  title: string;
  author: string;
  pages: number;
  state: string;
}

const BOOKS: Book[] = [
  { id: 'b1', title: 'Splicing fibre', author: 'Ada Field', pages: 120, state: 'Lent' },
  { id: 'b2', title: 'Cable plans', author: 'Bo Chen', pages: 48, state: '' },
];

const COLUMNS: DataListColumn<Book>[] = [
  { header: 'Title', cell: (b) => b.title, card: 'title' },
  { header: 'Author', cell: (b) => b.author, card: 'subtitle' },
  { header: 'State', cell: (b) => b.state, card: 'meta' },
  { header: 'Pages', cell: (b) => b.pages, align: 'right' },
];

function renderList(phone: boolean, onOpen = vi.fn()) {
  const matchMedia = window.matchMedia;
  vi.stubGlobal('matchMedia', (query: string) => ({
    ...matchMedia(query),
    matches: phone && query === PHONE_QUERY,
  }));
  render(
    <MantineProvider theme={theme}>
      <DataList
        label="Books"
        rows={BOOKS}
        rowKey={(b) => b.id}
        columns={COLUMNS}
        minWidth={600}
        actions={(b) => (
          <Button size="xs" onClick={() => onOpen(b.id)} aria-label={`Open ${b.title}`}>
            Open
          </Button>
        )}
      />
    </MantineProvider>,
  );
  return onOpen;
}

describe('DataList', () => {
  it('is a table on a wide screen: a column per field, the actions last', async () => {
    const onOpen = renderList(false);
    const table = screen.getByRole('table', { name: 'Books' });
    expect(screen.queryByRole('list', { name: 'Books' })).not.toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Title', 'Author', 'State', 'Pages', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Splicing fibre', 'Ada Field', 'Lent', '120', 'Open'],
      ['Cable plans', 'Bo Chen', '', '48', 'Open'],
    ]);
    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'Open Cable plans' }));
    expect(onOpen).toHaveBeenCalledWith('b2');
  });

  it('is one card per record on a phone, with the same data and actions', async () => {
    const onOpen = renderList(true);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Books' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    // Title, subtitle, the meta line, then each field under its label.
    expect(cards[0]).toHaveTextContent(/^Splicing fibreAda FieldLentPages120Open$/);
    // An empty meta value leaves no line.
    expect(cards[1]).toHaveTextContent(/^Cable plansBo ChenPages48Open$/);
    const field = within(cards[0]!).getByText('Pages');
    expect(field.tagName).toBe('DT');
    expect(field.nextElementSibling).toHaveTextContent('120');
    await userEvent.click(within(cards[1]!).getByRole('button', { name: 'Open Cable plans' }));
    expect(onOpen).toHaveBeenCalledWith('b2');
  });

  it('shows what it is given for no rows, in both forms', () => {
    for (const phone of [false, true]) {
      const matchMedia = window.matchMedia;
      vi.stubGlobal('matchMedia', (query: string) => ({
        ...matchMedia(query),
        matches: phone && query === PHONE_QUERY,
      }));
      const { unmount } = render(
        <MantineProvider theme={theme}>
          <DataList
            label="Books"
            rows={[]}
            rowKey={(b: Book) => b.id}
            columns={COLUMNS}
            empty={<p>No books yet.</p>}
          />
        </MantineProvider>,
      );
      expect(screen.getByText('No books yet.')).toBeInTheDocument();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(screen.queryByRole('list')).not.toBeInTheDocument();
      unmount();
    }
  });
});
