/** Renders the real app (providers, routes, guards, layout) at a path, in a memory router. */
import type { PublicUser } from '@learning-hub/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { createAppRoutes } from '../app/router';
import { mockFetch, type FetchMock, type MockRoutes } from './fetch-mock';
import { buildMe, buildSession, storeSession } from './fixtures';

export function renderApp(path: string) {
  const router = createMemoryRouter(createAppRoutes(), { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, user, queryClient };
}

/** A stored session for `user` and a server that knows it; returns the fetch mock. */
export function signedInAs(user: PublicUser, routes: MockRoutes = {}): FetchMock {
  storeSession(buildSession(user));
  return mockFetch({ 'GET /api/auth/me': { body: buildMe(user) }, ...routes });
}

/** Waits until the page's main heading is shown. */
export function findHeading(name: string | RegExp) {
  return screen.findByRole('heading', { level: 1, name });
}
