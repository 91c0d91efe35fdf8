/** GET /api/auth/config: the methods and providers the sign-in page offers, and dev mode. */
import { AuthConfigSchema, type AuthConfig, type AuthMethod } from '@learning-hub/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../api-client';
import { getAuthMethod, isStoredAuthMethod, setAuthMethod } from './auth-method';

export const AUTH_CONFIG_QUERY_KEY = ['auth-config'] as const;
/** The methods change rarely: asked again after five minutes. */
export const AUTH_CONFIG_STALE_MS = 5 * 60 * 1000;

/** What the app assumes until (or unless) the server answers: local sign-in only. */
export const FALLBACK_AUTH_CONFIG: AuthConfig = {
  methods: ['local'],
  defaultMethod: 'local',
  devMode: false,
  providers: { ldap: [], moodle: [], sso: [] },
};

export function fetchAuthConfig(): Promise<AuthConfig> {
  return api.get('/api/auth/config', AuthConfigSchema, { auth: false });
}

/**
 * Puts an answer of GET /api/auth/config fetched before the app started (by /login's static page)
 * into the cache, if it matches the contract; otherwise the app asks as usual.
 */
export function seedAuthConfig(queryClient: QueryClient, answer: unknown): void {
  if (answer === undefined) return;
  const parsed = AuthConfigSchema.safeParse(answer);
  if (parsed.success) queryClient.setQueryData(AUTH_CONFIG_QUERY_KEY, parsed.data);
}

export interface AuthConfigState {
  config: AuthConfig;
  /** The stored method if the server enables it, else 'local' or the server's default. */
  method: AuthMethod;
  /** True until the server answered (or failed to). */
  isLoading: boolean;
}

/**
 * Keeps the stored method in step with the server (spec §4: the method lives in browser storage):
 * dev mode stores 'disabled'; once dev mode is off, a stored 'disabled' gives way to the default.
 */
export function syncStoredAuthMethod(config: AuthConfig): void {
  if (config.devMode) {
    if (!isStoredAuthMethod('disabled')) setAuthMethod('disabled');
  } else if (isStoredAuthMethod('disabled')) {
    setAuthMethod(getAuthMethod(config.methods, config.defaultMethod));
  }
}

export function useAuthConfig(): AuthConfigState {
  const query = useQuery({
    queryKey: AUTH_CONFIG_QUERY_KEY,
    queryFn: fetchAuthConfig,
    staleTime: AUTH_CONFIG_STALE_MS,
  });
  const config = query.data ?? FALLBACK_AUTH_CONFIG;
  return {
    config,
    method: getAuthMethod(config.methods, config.defaultMethod),
    isLoading: query.isPending,
  };
}
