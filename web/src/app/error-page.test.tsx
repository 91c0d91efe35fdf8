import { ERROR_PAGE_SUPPORT_TEXT } from '@learning-hub/core';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { AppProviders } from './providers';
import { createQueryClient } from './query-client';
import { ErrorPage, generateErrorId, isChunkLoadError } from './error-page';

function renderFailing(route: { element?: React.ReactNode; lazy?: () => Promise<never> }) {
  mockFetch();
  const router = createMemoryRouter([{ path: '/', errorElement: <ErrorPage />, ...route }]);
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

function Thrower({ message }: { message: string }): never {
  throw new Error(message);
}

describe('error page', () => {
  it.each([
    ['Cannot load department roster', 'Department Page Error', 'DEPT_001'],
    ['Loading chunk 7 failed', 'Department Page Error', 'DEPT_001'],
    ['Route not matched', 'Navigation Error', 'NAV_001'],
    ['Network error occurred', 'Connection Error', 'DATA_001'],
    ['API answered 500', 'Connection Error', 'DATA_001'],
    ['Out of memory', 'Performance Error', 'PERF_001'],
    ['Component crashed', 'Component Error', 'REACT_001'],
    ['Something odd', 'Something Went Wrong', 'UNKNOWN_001'],
  ])('shows %j as %s (%s)', async (message, title, code) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderFailing({ element: <Thrower message={message} /> });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByText(code)).toBeInTheDocument();
    expect(screen.getByText(ERROR_PAGE_SUPPORT_TEXT)).toBeInTheDocument();
    expect(screen.getByText(/^ERR-[0-9A-Z]+-[0-9A-Z]{6}$/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Home' })).toBeInTheDocument();
  });

  it('catches a lazy page whose chunk cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failure = new TypeError(
      'Failed to fetch dynamically imported module: https://hub.example.com/assets/page.js',
    );
    renderFailing({ lazy: () => Promise.reject(failure) });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Connection Error' }),
    ).toBeInTheDocument();
    expect(isChunkLoadError(failure)).toBe(true);
  });

  it('makes distinct error ids', () => {
    const id = generateErrorId(Date.parse('2025-01-01T00:00:00Z'));
    expect(id).toMatch(/^ERR-[0-9A-Z]+-[0-9A-Z]{6}$/);
    expect(generateErrorId()).not.toBe(generateErrorId());
  });
});
