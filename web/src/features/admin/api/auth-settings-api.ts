/**
 * Admin API for sign-in (the Authentication page and /auth-test): methods on and off, providers
 * (secrets are write-only: the server only says whether one is set), connection tests and dry-run
 * sign-ins. Nothing here creates a session.
 */
import {
  AuthSettingsSchema,
  ConnectionTestResultSchema,
  SignInTestResultSchema,
  SsoTestStartResponseSchema,
  ProviderViewSchema,
  type AuthSettings,
  type ProviderInput,
  type SignInTestResult,
} from '@learning-hub/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { AUTH_CONFIG_QUERY_KEY } from '../../../lib/auth/auth-config';
import { adminKeys } from './keys';

/** The methods an admin can switch (dev mode is a start-up setting, never a toggle). */
export type SwitchableMethod = keyof AuthSettings['methods'];

const PendingSchema = z.object({ pending: z.literal(true) });
const SsoTestAnswerSchema = z.union([SignInTestResultSchema, PendingSchema]);

/** How often, and how many times, a single sign-on test result is asked for while pending. */
export const SSO_TEST_POLL_MS = 1000;
export const SSO_TEST_MAX_POLLS = 10;

const providerPath = (id: string) => `/api/admin/auth/providers/${encodeURIComponent(id)}`;

export function useAuthSettings() {
  return useQuery({
    queryKey: adminKeys.authSettings,
    queryFn: () => api.get('/api/admin/auth/settings', AuthSettingsSchema),
    staleTime: 10_000,
  });
}

/** After a change: the settings, the sign-in page's config and the audit trail reload. */
function useAfterAuthChange() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [adminKeys.authSettings, AUTH_CONFIG_QUERY_KEY, adminKeys.audits].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
    [queryClient],
  );
}

export function useToggleMethod() {
  const queryClient = useQueryClient();
  const after = useAfterAuthChange();
  return useMutation({
    mutationFn: ({ method, enabled }: { method: SwitchableMethod; enabled: boolean }) =>
      api.put(`/api/admin/auth/methods/${method}`, { enabled }, AuthSettingsSchema),
    onSuccess: async (settings) => {
      queryClient.setQueryData(adminKeys.authSettings, settings);
      await after();
    },
  });
}

/** Creates a provider (`existingId` null) or replaces one's settings (id and method stay). */
export function useSaveProvider() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationFn: ({ input, existingId }: { input: ProviderInput; existingId: string | null }) =>
      existingId
        ? api.put(providerPath(existingId), input, ProviderViewSchema)
        : api.post('/api/admin/auth/providers', input, ProviderViewSchema),
    onSuccess: after,
  });
}

export function useDeleteProvider() {
  const after = useAfterAuthChange();
  return useMutation({
    mutationFn: (id: string) => api.delete(providerPath(id), null),
    onSuccess: after,
  });
}

/** Connects to the provider as configured and reports every step. */
export function useConnectionTest() {
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`${providerPath(id)}/test`, undefined, ConnectionTestResultSchema),
  });
}

/** A dry-run directory or Moodle sign-in: no session, nothing stored. */
export function useSignInTest() {
  return useMutation({
    mutationFn: (body: { provider: string; username: string; password: string }) =>
      api.post('/api/admin/auth/test', body, SignInTestResultSchema),
  });
}

/** Starts a single sign-on test: the browser then goes to the identity provider. */
export function useStartSsoTest() {
  return useMutation({
    mutationFn: (provider: string) =>
      api.post('/api/admin/auth/test/sso/start', { provider }, SsoTestStartResponseSchema),
  });
}

export type SsoTestAnswer = SignInTestResult | { pending: true };

export function isPending(answer: SsoTestAnswer | undefined): answer is { pending: true } {
  return answer !== undefined && 'pending' in answer;
}

/**
 * The result of a single sign-on test the identity provider sent back. The server may answer 202
 * (still pending) for a moment: asked again every second, at most SSO_TEST_MAX_POLLS times.
 */
export function useSsoTestResult(testId: string | null) {
  return useQuery({
    queryKey: adminKeys.ssoTest(testId ?? ''),
    queryFn: () =>
      api.get(`/api/admin/auth/test/sso/${encodeURIComponent(testId ?? '')}`, SsoTestAnswerSchema),
    enabled: testId !== null,
    staleTime: Infinity,
    refetchInterval: (query) =>
      isPending(query.state.data) && query.state.dataUpdateCount < SSO_TEST_MAX_POLLS
        ? SSO_TEST_POLL_MS
        : false,
  });
}
