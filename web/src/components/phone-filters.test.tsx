import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../app/theme';
import { PHONE_QUERY } from '../lib/use-phone';
import { PhoneFilters } from './phone-filters';

function renderFilters(phone: boolean) {
  const matchMedia = window.matchMedia;
  vi.stubGlobal('matchMedia', (query: string) => ({
    ...matchMedia(query),
    matches: phone && query === PHONE_QUERY,
  }));
  render(
    <MantineProvider theme={theme}>
      <PhoneFilters search={<input aria-label="Search" />} active={2}>
        <input aria-label="Type" />
        <input aria-label="Tag" />
      </PhoneFilters>
    </MantineProvider>,
  );
}

describe('PhoneFilters', () => {
  it('shows the search and every filter on a wide screen, with no Filters button', () => {
    renderFilters(false);
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Type' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Filters/ })).not.toBeInTheDocument();
  });

  it('keeps the filters behind one button on a phone, which says how many are set', async () => {
    renderFilters(true);
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Type' })).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Filters (2)' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('textbox', { name: 'Tag' })).toBeInTheDocument();
    expect(document.getElementById(button.getAttribute('aria-controls')!)).toContainElement(
      screen.getByRole('textbox', { name: 'Type' }),
    );
    await userEvent.click(button);
    expect(screen.queryByRole('textbox', { name: 'Type' })).not.toBeInTheDocument();
  });
});
