import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-context';
import { AppNotifications } from './notifications';
import { cssVariablesResolver, theme } from './theme';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

/** Theme (light/dark through Mantine's default colour-scheme manager), notifications, queries, auth. */
export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      env={env}
    >
      <AppNotifications />
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
