/**
 * The auth API of spec §7 for local accounts, plus the session management the profile page uses.
 * Handlers stay thin: validation comes from the core contracts, SQL from the auth repositories.
 */
import {
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
  SessionListSchema,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAuthEvent } from '../../auth/auth-event-repository';
import {
  hashPassword,
  PASSWORD_MESSAGES,
  passwordPolicyProblem,
  verifyPassword,
} from '../../auth/passwords';
import { authenticateLocal } from '../../auth/providers/local';
import { moodleLogoutUrl } from '../../auth/providers/moodle';
import { findProvider } from '../../auth/provider-repository';
import { methodStates, publicAuthConfig, resolve } from '../../auth/providers/registry';
import { DEV_MODE_MESSAGE } from '../../auth/providers/dispatch';
import {
  listActiveSessions,
  revokeSession,
  revokeUserSessions,
} from '../../auth/session-repository';
import {
  countFailure,
  openSession,
  recordAttempt,
  throttledMessage,
  throttleState,
  type SignInScope,
} from '../../auth/sign-in';
import {
  findUserById,
  setPasswordHash,
  toPublicUser,
  updateProfile,
} from '../../auth/user-repository';
import type { Db } from '../../db';
import type { RequestAuth } from '../../plugins/access';

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
    { config: { access: { public: true } }, schema: { response: { 200: AuthConfigSchema } } },
    async () => publicAuthConfig(db, devMode),
  );

  app.post(
    '/api/auth/local',
    {
      config: { access: { public: true }, loginRoute: true },
      schema: {
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
      const { keys, wait } = await throttleState(scope, username);
      if (wait > 0) {
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
        await countFailure(scope, keys);
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
      return openSession(scope, outcome.user, keys);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: { response: { 200: MeResponseSchema } },
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
        response: {
          200: z.object({
            success: z.literal(true),
            /** Moodle sign-ins: the Moodle site's logout page, where the browser goes next. */
            redirectTo: z.string().optional(),
          }),
        },
      },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      await revokeSession(db, user.id, session.id, iso(), 'logout');
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
            return { success: true as const, redirectTo: moodleLogoutUrl(resolved.config) };
          }
        }
      }
      return { success: true as const };
    },
  );

  app.put(
    '/api/auth/profile',
    {
      config: { access: { permissions: ['user.edit_profile'] } },
      schema: { body: ProfileUpdateSchema, response: { 200: ProfileUpdateResponseSchema } },
    },
    async (request) => {
      const { user } = requireAuth(request);
      await updateProfile(db, user.id, request.body, iso());
      const updated = await findUserById(db, user.id);
      if (!updated) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
      return { success: true as const, user: toPublicUser(updated) };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: { body: ChangePasswordSchema, response: { 200: ChangePasswordResponseSchema } },
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
      const { keys, wait } = await throttleState(scope, user.username);
      if (wait > 0) {
        throw new AppError(
          'TOO_MANY_ATTEMPTS',
          `Too many failed attempts. Try again in ${wait} seconds.`,
          { retryAfter: wait },
        );
      }
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, currentPassword))) {
        await countFailure(scope, keys);
        await sessionEvent(request, 'password_change_failure', {
          username: user.username,
          userId: user.id,
          success: false,
          error: 'Current password is incorrect',
        });
        throw new AppError('INVALID_CURRENT_PASSWORD', 'Current password is incorrect');
      }
      if (newPassword === currentPassword) {
        throw new AppError('PASSWORD_POLICY', PASSWORD_MESSAGES.sameAsCurrent);
      }
      const problem = passwordPolicyProblem(newPassword, user.username);
      if (problem) throw new AppError('PASSWORD_POLICY', problem);

      await setPasswordHash(
        db,
        user.id,
        await hashPassword(newPassword),
        { isDefaultPassword: false, mustChangePassword: false },
        iso(),
      );
      const revokedSessions = await revokeUserSessions(
        db,
        user.id,
        iso(),
        'password_changed',
        session.id,
      );
      await sessionEvent(request, 'password_change', {
        username: user.username,
        userId: user.id,
        success: true,
      });
      return { success: true as const, revokedSessions };
    },
  );

  app.post(
    '/api/auth/log',
    {
      config: {
        access: { public: true },
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      schema: { body: AuthLogEventSchema },
    },
    async (request, reply) => {
      const e = request.body;
      await recordAuthEvent(db, {
        occurredAt: iso(),
        source: 'client',
        event: e.event,
        username: e.username,
        authMethod: e.authMethod,
        success: e.event.endsWith('_success') ? true : e.event.endsWith('_failure') ? false : null,
        error: e.error ?? null,
        address: request.ip,
        clientIpAddress: e.ipAddress,
        clientTimestamp: e.timestamp,
        userAgent: e.userAgent,
        requestId: request.id,
      });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/auth/sessions',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: { response: { 200: SessionListSchema } },
    },
    async (request) => {
      const { user, session: current } = requireAuth(request);
      const sessions = await listActiveSessions(db, user.id, iso());
      return {
        sessions: sessions.map((s) => ({
          id: s.id,
          method: s.method,
          createdAt: s.createdAt,
          lastUsedAt: s.lastUsedAt,
          expiresAt: s.expiresAt,
          ipAddress: s.ipAddress,
          userAgent: s.userAgent,
          current: s.id === current.id,
        })),
      };
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: {
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      const ended = await revokeSession(db, user.id, request.params.id, iso(), 'ended_by_user');
      if (!ended) throw new AppError('NOT_FOUND', 'Session not found');
      await sessionEvent(request, 'session_revoked', {
        username: user.username,
        userId: user.id,
        success: true,
      });
      return { success: true as const };
    },
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    {
      config: { access: { allowDuringPasswordChange: true } },
      schema: { response: { 200: RevokeOthersResponseSchema } },
    },
    async (request) => {
      const { user, session } = requireAuth(request);
      const revoked = await revokeUserSessions(db, user.id, iso(), 'ended_by_user', session.id);
      return { revoked };
    },
  );
};

export default authRoutes;
