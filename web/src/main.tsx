// First, before any module that builds a zod schema: no `new Function` probe under the CSP.
import '@learning-hub/core/zod-config';
// The shell's styles only: each page brings its own (docs/front-end.md).
import './app/styles/shell.css';
import './app/app.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import {
  AUTH_CONFIG_QUERY_KEY,
  AUTH_CONFIG_STALE_MS,
  fetchAuthConfig,
  seedAuthConfig,
} from './lib/auth/auth-config';
import { peekLoginHandoff } from './lib/login-handoff';
import { nextTask } from './lib/next-task';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const queryClient = createQueryClient();
const root = createRoot(container);

// Evaluating the app's modules, asking for the sign-in methods, making the router and rendering
// are each a task of their own rather than one long one: on a phone they held the main thread
// for ~450 ms in one go (docs/front-end.md "Total blocking time").
async function start(): Promise<void> {
  await nextTask();
  // Started from /login's static page (src/login.ts): it has already asked.
  seedAuthConfig(queryClient, peekLoginHandoff()?.config);
  // Every page asks which sign-in methods there are: ask now (index.html has preloaded the
  // answer), before anything renders.
  void queryClient.prefetchQuery({
    queryKey: AUTH_CONFIG_QUERY_KEY,
    queryFn: fetchAuthConfig,
    staleTime: AUTH_CONFIG_STALE_MS,
  });
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread for its whole length, which a phone's CPU makes long
  // (docs/front-end.md).
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
}

void start();
