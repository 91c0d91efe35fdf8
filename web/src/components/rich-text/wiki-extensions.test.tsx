import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLayoutForEditor } from '../../test/assignment-fixtures';
import { RichTextEditor } from './rich-text-editor';

beforeAll(stubLayoutForEditor);

/** The wiki's editor: checklists and callouts on. */
function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider env="test">
      <RichTextEditor label="Page text" value={value} onChange={setValue} checklists callouts />
      <output data-testid="html">{value}</output>
    </MantineProvider>
  );
}

/** The editor's HTML without the empty paragraph it always keeps after the last block. */
const html = () => (screen.getByTestId('html').textContent ?? '').replace(/<p><\/p>$/, '');

/** A checklist exactly as the server stores it (no checkbox input, no label). */
const STORED_CHECKLIST =
  '<ul data-type="taskList">' +
  '<li data-type="taskItem" data-checked="true"><p>Gas test done</p></li>' +
  '<li data-type="taskItem" data-checked="false"><p>Barriers up</p></li>' +
  '</ul>';

describe('RichTextEditor checklists', () => {
  it('reads a stored checklist and writes it back in the same form when a box is ticked', async () => {
    const user = userEvent.setup();
    render(<Harness initial={STORED_CHECKLIST} />);
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    const [first, second] = within(box).getAllByRole('checkbox');
    expect(first).toBeChecked();
    expect(second).not.toBeChecked();

    await user.click(second!);
    await waitFor(() =>
      expect(html()).toBe(STORED_CHECKLIST.replace('data-checked="false"', 'data-checked="true"')),
    );
  });

  it('turns a paragraph into a checklist from the toolbar', async () => {
    const user = userEvent.setup();
    render(<Harness initial="<p>Close the closure</p>" />);
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Checklist' }));
    await waitFor(() =>
      expect(html()).toBe(
        '<ul data-type="taskList"><li data-type="taskItem" data-checked="false"><p>Close the closure</p></li></ul>',
      ),
    );
  });
});

describe('RichTextEditor callouts', () => {
  it('wraps a block in a callout, changes its kind and removes it from the toolbar', async () => {
    const user = userEvent.setup();
    render(<Harness initial="<p>Live fibre: never look into it.</p>" />);
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    await user.click(box);

    await user.click(screen.getByRole('button', { name: 'Callout' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Danger' }));
    await waitFor(() =>
      expect(html()).toBe(
        '<div data-callout="danger"><p>Live fibre: never look into it.</p></div>',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Callout: Danger' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Warning' }));
    await waitFor(() =>
      expect(html()).toBe(
        '<div data-callout="warning"><p>Live fibre: never look into it.</p></div>',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Callout: Warning' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove callout' }));
    await waitFor(() => expect(html()).toBe('<p>Live fibre: never look into it.</p>'));
  });

  it('reads a stored callout of a known kind, and no callout of an unknown one', async () => {
    render(
      <Harness initial='<div data-callout="tip"><p>Cleave once.</p></div><div data-callout="x"><p>Odd</p></div>' />,
    );
    const box = await screen.findByRole('textbox', { name: 'Page text' });
    expect(box.querySelector('div[data-callout="tip"]')).toHaveTextContent('Cleave once.');
    expect(box.querySelector('div[data-callout="x"]')).toBeNull();
    expect(screen.getByText('Odd').parentElement).toBe(box);
  });
});
