/**
 * The auth API of spec §7 for local accounts, plus the session management the profile page uses.
 * Handlers stay thin: validation comes from the core contracts, SQL from the auth repositories.
 */
import {
  AccountSourceSchema,
  AppError,
  ACCOUNT_REFUSALS,
  AuthConfigSchema,
  AuthLogEventSchema,
  ChangePasswordResponseSchema,
  ChangePasswordSchema,
  CredentialsSchema,
  LoginFailureSchema,
  LoginSuccessSchema,
  MeResponseSchema,
  ProfileUpdateResponseSchema,
  ProfileUpdateSchema,
  RevokeOthersResponseSchema,
  SessionListQuerySchema,
  SessionListSchema,
  SignOutResultSchema,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSource, updateOwnProfile } from '../../platform/auth/account-management';
import { pruneClientReports, recordClientReport } from '../../platform/auth/auth-event-repository';
import { hashPassword, passwordPolicyProblem, verifyPassword } from '../../platform/auth/passwords';
import { authenticateLocal } from '../../platform/auth/providers/local';
import { moodleLogoutUrl } from '../../platform/auth/providers/moodle';
import { findProvider } from '../../platform/auth/provider-repository';
import { methodStates, publicAuthConfig, resolve } from '../../platform/auth/providers/registry';
import { DEV_MODE_MESSAGE } from '../../platform/auth/providers/dispatch';
import {
  listActiveSessions,
  revokeSession,
  revokeUserSessions,
} from '../../platform/auth/session-repository';
import {
  openSession,
  recordAttempt,
  recordEveryAttempt,
  reserveSignIn,
  throttledMessage,
  type SignInScope,
} from '../../platform/auth/sign-in';
import { releaseAttempt } from '../../platform/auth/throttle';
import { setPasswordHash, toPublicUser } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { RequestAuth } from '../../platform/http/access';
import { pageWindow, sendPage } from '../../platform/paging';

/** Limits of the browser's auth log (POST /api/auth/log). */
export const CLIENT_REPORT_LIMITS = {
  /** Reports one client address may send a minute (a sign-in sends two or three). */
  perAddressPerMinute: 30,
  /** Reports one server instance accepts a minute from everyone together. */
  perMinute: 600,
  /** Reports kept: older ones are deleted, checked every `pruneEvery` reports. */
  kept: 100_000,
  pruneEvery: 1_000,
} as const;

export interface AuthRoutesOptions {
  db: Db;
  now: () => number;
  devMode: boolean;
}

function requireAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
  return request.auth;
}

const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { db, now, devMode }) => {
  const iso = () => new Date(now()).toISOString();
  recordEveryAttempt(app, db, now);

  /** Events about a signed-in user's session, recorded under the session's method. */
  const sessionEvent = (
    request: FastifyRequest,
    event: string,
    fields: { username?: string | null; userId?: string | null; success?: boolean; error?: string },
  ) =>
    recordAttempt(
      { db, now, request, method: request.auth?.session.method ?? 'local' },
      event,
      fields,
    );

  app.get(
    '/api/auth/config',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'getSignInConfig',
        tags: ['auth'],
        summary: 'The sign-in methods on offer',
        response: { 200: AuthConfigSchema },
      },
    },
    async () => publicAuthConfig(db, devMode),
  );

  app.post(
    '/api/auth/local',
    {
      config: {
        access: { public: true },
        loginRoute: true,
        responses: {
          400: ['Local sign-in is not enabled', DEV_MODE_MESSAGE],
          401: ['Invalid username or password'],
          403: [ACCOUNT_REFUSALS.deactivated],
          429: ['Too many failed attempts (`TOO_MANY_ATTEMPTS`, `retryAfter` in seconds).'],
        },
      },
      schema: {
        operationId: 'signInLocal',
        tags: ['auth'],
        summary: 'Sign in with a username and password',
        body: CredentialsSchema,
        response: {
          200: LoginSuccessSchema,
          400: LoginFailureSchema,
          401: LoginFailureSchema,
          403: LoginFailureSchema,
          429: LoginFailureSchema,
        },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const refuse = (code: string, error: string) =>
        reply.code(400).send({ success: false, error, code, message: error });
      if (devMode) return refuse('AUTH_METHOD_DISABLED', DEV_MODE_MESSAGE);
      if (!(await methodStates(db)).local) {
        return refuse('AUTH_METHOD_DISABLED', 'Local sign-in is not enabled');
      }
      const scope: SignInScope = { db, now, request, method: 'local' };
      // Counted before the password is checked: parallel guesses cannot slip past the limits.
      const reservation = await reserveSignIn(scope, username);
      if (!reservation.granted) {
        const { wait } = reservation;
        const error = throttledMessage(wait);
        await recordAttempt(scope, 'login_throttled', { username, success: false, error });
        return reply.code(429).header('retry-after', String(wait)).send({
          success: false,
          error,
          code: 'TOO_MANY_ATTEMPTS',
          message: error,
          retryAfter: wait,
        });
      }

      const outcome = await authenticateLocal(db, { username, password });
      if (!outcome.ok) {
        const code = outcome.reason === 'disabled' ? 'ACCOUNT_DISABLED' : 'INVALID_CREDENTIALS';
        const error =
          outcome.reason === 'disabled'
            ? ACCOUNT_REFUSALS.deactivated
            : 'Invalid username or password';
        await recordAttempt(scope, 'login_failure', {
          username,
          userId: outcome.reason === 'disabled' ? outcome.userId : null,
          success: false,
          error,
        });
        return reply
          .code(code === 'ACCOUNT_DISABLED' ? 403 : 401)
          .send({ success: false, error, code, message: error });
      }
      return openSession(scope, outcome.user, reservation.keys);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: {
        operationId: 'getCurrentUser',
        tags: ['auth'],
        summary: 'The signed-in user and their permissions',
        response: { 200: MeResponseSchema },
      },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      return {
        user: toPublicUser(user),
        session: { id: session.id, method: session.method, expiresAt: session.expiresAt },
        access: app.access.snapshot(user),
      };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: {
        operationId: 'signOut',
        tags: ['auth'],
        summary: 'Sign out (ends this session)',
        response: { 200: SignOutResultSchema },
      },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      await revokeSession(db, user.id, session.id, iso(), 'logout');
      app.live.endSession(session.id);
      await sessionEvent(request, 'logout', {
        username: user.username,
        userId: user.id,
        success: true,
      });
      if (session.method === 'moodle' && user.authSource) {
        const provider = await findProvider(db, user.authSource);
        if (provider?.method === 'moodle') {
          const resolved = resolve(provider);
          if (resolved.method === 'moodle') {
            return { redirectTo: moodleLogoutUrl(resolved.config) };
          }
        }
      }
      return { redirectTo: null };
    },
  );

  app.put(
    '/api/auth/profile',
    {
      config: {
        access: { permissions: ['user.edit_profile'] },
        responses: {
          409: [
            'The first name of this account comes from <its provider> and can only be changed there.',
          ],
        },
      },
      schema: {
        operationId: 'updateOwnProfile',
        tags: ['auth'],
        summary: 'Change one’s own profile',
        body: ProfileUpdateSchema,
        response: { 200: ProfileUpdateResponseSchema },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const updated = await updateOwnProfile(db, user, request.body, iso());
      return { user: toPublicUser(updated) };
    },
  );

  app.get(
    '/api/auth/profile',
    {
      config: { access: { permissions: ['user.view_profile'] } },
      schema: {
        operationId: 'getOwnProfile',
        tags: ['auth'],
        summary: 'Where one’s account comes from',
        response: { 200: AccountSourceSchema },
      },
    },
    async (request) => accountSource(db, requireAuth(request).user),
  );

  app.post(
    '/api/auth/change-password',
    {
      config: {
        access: { allowDuringPasswordChange: true },
        responses: {
          400: [
            'This account signs in through another service: change its password there.',
            'Current password is incorrect (`INVALID_CURRENT_PASSWORD`).',
            'The new password breaks the password policy (`PASSWORD_POLICY`; the message says how).',
          ],
          429: ['Too many failed attempts. Try again in <n> seconds. (`TOO_MANY_ATTEMPTS`)'],
        },
      },
      schema: {
        operationId: 'changeOwnPassword',
        tags: ['auth'],
        summary: 'Change one’s own password',
        body: ChangePasswordSchema,
        response: { 200: ChangePasswordResponseSchema },
      },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      const { currentPassword, newPassword } = request.body;
      if (user.authMethod !== 'local') {
        throw new AppError(
          'BAD_REQUEST',
          'This account signs in through another service: change its password there.',
        );
      }
      const scope: SignInScope = { db, now, request, method: 'local' };
      // The current password is a guessable secret too: counted like a sign-in, before checking.
      const reservation = await reserveSignIn(scope, user.username);
      if (!reservation.granted) {
        const { wait } = reservation;
        throw new AppError(
          'TOO_MANY_ATTEMPTS',
          `Too many failed attempts. Try again in ${wait} seconds.`,
          { retryAfter: wait },
        );
      }
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
        await sessionEvent(request, 'password_change_failure', {
          username: user.username,
          userId: user.id,
          success: false,
          error: 'Current password is incorrect',
        });
        throw new AppError('INVALID_CURRENT_PASSWORD', 'Current password is incorrect');
      }
      await releaseAttempt(db, reservation.keys, 'success', now());
      // One policy for every way a password is set (passwords.ts): names, patterns, the current one.
      const problem = passwordPolicyProblem(newPassword, user, { currentPassword });
      if (problem) throw new AppError('PASSWORD_POLICY', problem);

      const passwordHash = await hashPassword(newPassword);
      // The new password, the other sessions ended and the notice of it: together or not at all.
      const revokedSessions = await db.transaction().execute(async (trx) => {
        await setPasswordHash(
          trx,
          user.id,
          passwordHash,
          { isDefaultPassword: false, mustChangePassword: false },
          iso(),
        );
        const revoked = await revokeUserSessions(
          trx,
          user.id,
          iso(),
          'password_changed',
          session.id,
        );
        await app.notifications.notify(trx, {
          kind: 'account.password-changed',
          priority: 'important',
          title: 'Your password was changed',
          body:
            revoked > 0
              ? `Your other sessions (${revoked}) were signed out. If it was not you, tell an administrator at once.`
              : 'If it was not you, tell an administrator at once.',
          link: '/profile-settings',
          recipients: [user.id],
        });
        return revoked;
      });
      void app.notifications.dispatch();
      app.live.endUserSessions(user.id, { exceptSessionId: session.id });
      await sessionEvent(request, 'password_change', {
        username: user.username,
        userId: user.id,
        success: true,
      });
      return { revokedSessions };
    },
  );

  /**
   * The browser's auth log (spec §3, §7: fire and forget). What it reports is only its claim, so
   * it is kept apart from the server's own record (see auth-event-repository): it can never count
   * as a sign-in, a failure or a last sign-in. Limited per address and per instance, and only the
   * newest reports are kept, so that no one can flood the database through it.
   */
  let reportsWindow = { start: 0, count: 0 };
  let reportsSincePrune = 0;
  app.post(
    '/api/auth/log',
    {
      config: {
        access: { public: true },
        rateLimit: { max: CLIENT_REPORT_LIMITS.perAddressPerMinute, timeWindow: '1 minute' },
        responses: {
          204: 'Recorded.',
          429: ['Too many auth log reports. Try again in a minute.'],
        },
      },
      schema: {
        operationId: 'reportAuthEvent',
        tags: ['auth'],
        summary: 'Report a sign-in event from the client',
        body: AuthLogEventSchema,
      },
    },
    async (request, reply) => {
      const at = now();
      if (at - reportsWindow.start >= 60_000) reportsWindow = { start: at, count: 0 };
      if (reportsWindow.count >= CLIENT_REPORT_LIMITS.perMinute) {
        throw new AppError('RATE_LIMITED', 'Too many auth log reports. Try again in a minute.', {
          retryAfter: Math.ceil((reportsWindow.start + 60_000 - at) / 1000),
        });
      }
      reportsWindow.count += 1;
      const e = request.body;
      await recordClientReport(db, {
        receivedAt: new Date(at).toISOString(),
        event: e.event,
        username: e.username,
        authMethod: e.authMethod,
        error: e.error ?? null,
        address: request.ip,
        clientIpAddress: e.ipAddress,
        clientTimestamp: e.timestamp,
        userAgent: e.userAgent,
        requestId: request.id,
      });
      reportsSincePrune += 1;
      if (reportsSincePrune >= CLIENT_REPORT_LIMITS.pruneEvery) {
        reportsSincePrune = 0;
        await pruneClientReports(db, CLIENT_REPORT_LIMITS.kept);
      }
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/auth/sessions',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: {
        operationId: 'listOwnSessions',
        tags: ['auth'],
        summary: 'One’s own sessions',
        querystring: SessionListQuerySchema,
        response: { 200: SessionListSchema },
      },
    },
    async (request, reply) => {
      const { user, session: current } = requireAuth(request);
      const { rows, total } = await listActiveSessions(
        db,
        user.id,
        iso(),
        current.id,
        pageWindow(request.query),
      );
      return sendPage(request, reply, {
        items: rows.map((s) => ({
          id: s.id,
          method: s.method,
          createdAt: s.createdAt,
          lastUsedAt: s.lastUsedAt,
          expiresAt: s.expiresAt,
          ipAddress: s.ipAddress,
          userAgent: s.userAgent,
          current: s.id === current.id,
        })),
        total,
        page: request.query.page,
        pageSize: request.query.pageSize,
      });
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      config: {
        access: { allowDuringPasswordChange: true },
        responses: { 204: 'Ended.', 404: ['Session not found'] },
      },
      schema: {
        operationId: 'deleteOwnSession',
        tags: ['auth'],
        summary: 'End one of one’s own sessions',
        params: z.object({ id: z.string().min(1).max(100) }),
      },
    },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const ended = await revokeSession(db, user.id, request.params.id, iso(), 'ended_by_user');
      if (!ended) throw new AppError('NOT_FOUND', 'Session not found');
      app.live.endSession(request.params.id);
      await sessionEvent(request, 'session_revoked', {
        username: user.username,
        userId: user.id,
        success: true,
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: {
        operationId: 'deleteOtherOwnSessions',
        tags: ['auth'],
        summary: 'End all one’s other sessions',
        response: { 200: RevokeOthersResponseSchema },
      },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      const revoked = await revokeUserSessions(db, user.id, iso(), 'ended_by_user', session.id);
      app.live.endUserSessions(user.id, { exceptSessionId: session.id });
      return { revoked };
    },
  );
};

export default authRoutes;
