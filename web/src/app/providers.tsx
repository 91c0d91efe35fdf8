import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-context';
import { useDisplaySetting } from '../lib/settings/display-settings';
import { AppNotifications } from './notifications';
import { settingsColorSchemeManager, SettingsApplier } from './settings-applier';
import { cssVariablesResolver, theme, themeAllowingMotion } from './theme';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

/**
 * Theme, notifications, queries, auth, and the person's settings in force (app/settings-applier.tsx):
 * the colour scheme through a colour-scheme manager that reads the settings, and the theme's
 * `respectReducedMotion` from their reduced-motion setting (`allow` animates whatever the device
 * asks).
 */
export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  const motion = useDisplaySetting('reducedMotion');
  return (
    <MantineProvider
      theme={motion === 'allow' ? themeAllowingMotion : theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={settingsColorSchemeManager}
      defaultColorScheme="auto"
      env={env}
    >
      <AppNotifications />
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          {children}
          <SettingsApplier />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
