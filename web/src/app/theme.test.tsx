import { Loader, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

describe('theme', () => {
  it('gives a labelled spinner the progress bar role its name needs', () => {
    render(
      <MantineProvider theme={theme}>
        <Loader aria-label="Loading users" />
        <Loader aria-hidden="true" />
      </MantineProvider>,
    );
    expect(screen.getByRole('progressbar', { name: 'Loading users' })).toBeInTheDocument();
    expect(screen.getAllByRole('progressbar')).toHaveLength(1);
  });
});
