/**
 * Sign-in with a directory (LDAP), Moodle, or single sign-on (OpenID Connect), spec §7: each
 * proves the person with its provider, maps them to an account (created at first sign-in, role
 * and context roles from group mappings refreshed every time) and opens an 8-hour session.
 * Every attempt is recorded and throttled like a local one. A client may only *name* a
 * configured provider; everything about a provider (addresses, DNs, secrets) is the server's.
 */
import { randomBytes } from 'node:crypto';
import {
  ACCOUNT_REFUSALS,
  AppError,
  LdapLoginSchema,
  LoginSuccessSchema,
  MoodleLoginSchema,
  ProviderLoginFailureSchema,
  SsoLoginSchema,
  type ProviderMethod,
  type SsoErrorCode,
} from '@learning-hub/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { applyIdentity, describeMappedAssignments } from '../../platform/auth/identity-mapping';
import {
  accessFor,
  authenticateWith,
  DEV_MODE_MESSAGE,
  INVALID_METHOD_MESSAGE,
  ssoRedirectUri,
} from '../../platform/auth/providers/dispatch';
import { providerFor, resolve } from '../../platform/auth/providers/registry';
import {
  completeAuthorization,
  ssoConfiguration,
  startAuthorization,
} from '../../platform/auth/providers/sso';
import { NO_TRACE, ProviderFailure, Trace } from '../../platform/auth/providers/types';
import {
  consumeSsoCode,
  consumeSsoFlow,
  findProvider,
  insertSsoCode,
  insertSsoFlow,
  purgeExpiredSso,
  saveSsoTestResult,
} from '../../platform/auth/provider-repository';
import {
  openSession,
  recordAttempt,
  recordEveryAttempt,
  recordRefusedAttempt,
  reserveSignIn,
  throttledMessage,
  voidAttempt,
  type SignInScope,
} from '../../platform/auth/sign-in';
import { findUserById, toPublicUser } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { RouteResponses } from '../../platform/http/openapi';

/** A single-sign-on flow must come back within this time. */

/** The `sso_error` code of a failed single sign-on (the page shows the code's fixed text). */
function ssoErrorCode(error: unknown): SsoErrorCode {
  if (error instanceof ProviderFailure) {
    switch (error.kind) {
      case 'invalid_credentials':
        return 'refused';
      case 'forbidden':
        if (error.refusal === 'conflict') return 'account_conflict';
        if (error.refusal === 'deactivated') return 'deactivated';
        return 'not_allowed';
      case 'unavailable':
      case 'timeout':
        return 'unavailable';
      case 'misconfigured':
        return 'misconfigured';
    }
  }
  if (error instanceof AppError) {
    if (error.code === 'AUTH_METHOD_DISABLED') return 'method_disabled';
    if (error.code === 'VALIDATION_ERROR' || error.code === 'BAD_REQUEST')
      return 'unknown_provider';
  }
  return 'failed';
}

const SSO_FLOW_TTL_MS = 10 * 60_000;
/** The one-time code the callback hands the browser is valid this long. */
export const SSO_CODE_TTL_MS = 60_000;

const STATUS: Record<ProviderFailure['kind'], number> = {
  invalid_credentials: 401,
  forbidden: 403,
  unavailable: 503,
  timeout: 504,
  misconfigured: 502,
};
const CODES: Record<ProviderFailure['kind'], string> = {
  invalid_credentials: 'INVALID_CREDENTIALS',
  forbidden: 'FORBIDDEN',
  unavailable: 'SERVICE_UNAVAILABLE',
  timeout: 'SERVICE_UNAVAILABLE',
  misconfigured: 'SERVICE_UNAVAILABLE',
};

export interface ProviderRoutesOptions {
  db: Db;
  now: () => number;
  devMode: boolean;
  publicUrl: string;
}

/** A same-site path to return to after single sign-on (anything else: the home page). */
function safeReturn(path: unknown): string {
  return typeof path === 'string' &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    path.length < 500
    ? path
    : '/';
}

const providerRoutes: FastifyPluginAsyncZod<ProviderRoutesOptions> = async (
  app,
  { db, now, devMode, publicUrl },
) => {
  const iso = () => new Date(now()).toISOString();
  recordEveryAttempt(app, db, now);

  function failure(
    reply: FastifyReply,
    status: number,
    code: string,
    message: string,
    extra: object = {},
  ) {
    return reply
      .code(status)
      .send({ success: false as const, message, error: message, code, ...extra });
  }

  /** Shared body of the password sign-ins (directory and Moodle). */
  async function passwordSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    method: Exclude<ProviderMethod, 'sso'>,
    username: string,
    password: string,
    requested: unknown,
  ) {
    if (devMode) return failure(reply, 400, 'AUTH_METHOD_DISABLED', DEV_MODE_MESSAGE);
    const provider = await providerFor(
      db,
      method,
      requested,
      method === 'ldap' ? 'ldapConfig' : 'moodleConfig',
    );
    const scope: SignInScope = { db, now, request, method };
    // Counted before the provider checks the password: parallel guesses cannot slip past.
    const reservation = await reserveSignIn(scope, username);
    if (!reservation.granted) {
      const { wait } = reservation;
      const message = throttledMessage(wait);
      await recordAttempt(scope, 'login_throttled', { username, success: false, error: message });
      reply.header('retry-after', String(wait));
      return failure(reply, 429, 'TOO_MANY_ATTEMPTS', message, { retryAfter: wait });
    }
    const { keys } = reservation;
    try {
      const identity = await authenticateWith(provider, username, password, NO_TRACE);
      const access = await accessFor(db, provider, identity);
      if (provider.method === 'ldap' && provider.config.requireMappedGroup && !access.matched) {
        throw new ProviderFailure(
          'forbidden',
          'Your directory account is not allowed to sign in here',
        );
      }
      const { user } = await applyIdentity(db, identity, access, iso());
      return await openSession(scope, user, keys);
    } catch (error) {
      // Only a refused password stays counted; nothing was guessed when the provider failed.
      if (!(error instanceof ProviderFailure) || error.kind !== 'invalid_credentials') {
        await voidAttempt(scope, keys);
      }
      if (!(error instanceof ProviderFailure)) throw error;
      await recordAttempt(scope, 'login_failure', {
        username,
        success: false,
        error: error.message,
      });
      request.log.info({ provider: provider.id, kind: error.kind }, 'provider sign-in failed');
      return failure(reply, STATUS[error.kind], CODES[error.kind], error.message);
    }
  }

  /** What the sign-ins through a provider refuse with (the API description's words). */
  const loginRefusals: RouteResponses = {
    400: [
      DEV_MODE_MESSAGE,
      '<Method> sign-in is not enabled, or no provider of it is configured (`AUTH_METHOD_DISABLED`).',
      'The request may only name a configured provider (`VALIDATION_ERROR`).',
    ],
    401: [
      'The provider refused the credentials, or the one-time code is not valid (`INVALID_CREDENTIALS`).',
    ],
    403: [ACCOUNT_REFUSALS.conflict, ACCOUNT_REFUSALS.deactivated, ACCOUNT_REFUSALS.notAllowed],
    429: ['Too many failed attempts (`TOO_MANY_ATTEMPTS`, `retryAfter` in seconds).'],
    502: ['The provider is misconfigured (`SERVICE_UNAVAILABLE`).'],
    503: ['The provider cannot be reached (`SERVICE_UNAVAILABLE`).'],
    504: ['The provider did not answer in time (`SERVICE_UNAVAILABLE`).'],
  };

  const loginResponses = {
    200: LoginSuccessSchema,
    400: ProviderLoginFailureSchema,
    401: ProviderLoginFailureSchema,
    403: ProviderLoginFailureSchema,
    429: ProviderLoginFailureSchema,
    502: ProviderLoginFailureSchema,
    503: ProviderLoginFailureSchema,
    504: ProviderLoginFailureSchema,
  };

  app.post(
    '/api/auth/ldap',
    {
      config: { access: { public: true }, loginRoute: true, responses: loginRefusals },
      schema: {
        operationId: 'signInLdap',
        tags: ['auth'],
        summary: 'Sign in through LDAP',
        body: LdapLoginSchema,
        response: loginResponses,
      },
    },
    async (request, reply) =>
      passwordSignIn(
        request,
        reply,
        'ldap',
        request.body.credentials.username,
        request.body.credentials.password,
        request.body.ldapConfig,
      ),
  );

  app.post(
    '/api/auth/moodle',
    {
      config: { access: { public: true }, loginRoute: true, responses: loginRefusals },
      schema: {
        operationId: 'signInMoodle',
        tags: ['auth'],
        summary: 'Sign in through Moodle',
        body: MoodleLoginSchema,
        response: loginResponses,
      },
    },
    async (request, reply) =>
      passwordSignIn(
        request,
        reply,
        'moodle',
        request.body.credentials.username,
        request.body.credentials.password,
        request.body.moodleConfig,
      ),
  );

  /** Starts single sign-on: the browser goes to the identity provider (PKCE, state, nonce). */
  app.get(
    '/api/auth/sso/start',
    {
      config: {
        access: { public: true },
        responses: {
          303: 'To the identity provider, or back to /login?sso_error=<code> when it cannot start.',
        },
      },
      schema: {
        operationId: 'startSso',
        tags: ['auth'],
        summary: 'Start single sign-on (redirect)',
        querystring: z.object({
          provider: z.string().max(40).optional(),
          returnTo: z.string().max(500).optional(),
        }),
      },
    },
    async (request, reply) => {
      const back = (code: SsoErrorCode) => reply.redirect(`/login?sso_error=${code}`, 303);
      if (devMode) return back('dev_mode');
      try {
        const provider = await providerFor(db, 'sso', request.query.provider, 'provider');
        if (provider.method !== 'sso')
          throw new AppError('BAD_REQUEST', 'Not a single sign-on provider');
        const configuration = await ssoConfiguration(
          provider.id,
          provider.config,
          provider.secrets,
          provider.updatedAt,
          NO_TRACE,
        );
        const start = await startAuthorization(
          configuration,
          provider.config,
          ssoRedirectUri(publicUrl),
        );
        await insertSsoFlow(
          db,
          start.state,
          {
            providerId: provider.id,
            codeVerifier: start.codeVerifier,
            nonce: start.nonce,
            purpose: 'login',
            returnTo: safeReturn(request.query.returnTo),
            actorId: null,
            testId: null,
            expiresAt: new Date(now() + SSO_FLOW_TTL_MS).toISOString(),
          },
          iso(),
        );
        await purgeExpiredSso(db, iso());
        return reply.redirect(start.url, 303);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await recordAttempt({ db, now, request, method: 'sso' }, 'login_failure', {
          success: false,
          error: message,
        });
        return back(ssoErrorCode(error));
      }
    },
  );

  /**
   * The identity provider sends the browser back here. The state must name a flow this server
   * started and has not finished (a replay finds nothing); the code is exchanged with the PKCE
   * verifier, and the ID token's issuer, audience, nonce and signature are checked. The browser
   * gets a one-time code, not a session token, in its address bar.
   */
  app.get(
    '/api/auth/sso/callback',
    {
      config: {
        access: { public: true },
        responses: {
          303: 'To /login with a one-time code (sso_code) or an sso_error, or to the provider test page.',
        },
      },
      schema: {
        operationId: 'completeSso',
        tags: ['auth'],
        summary: 'Single sign-on callback (redirect)',
        querystring: z.record(z.string(), z.string().max(4000)),
      },
    },
    async (request, reply) => {
      const back = (code: SsoErrorCode) => reply.redirect(`/login?sso_error=${code}`, 303);
      const scope: SignInScope = { db, now, request, method: 'sso' };
      const { state, error, error_description: description } = request.query;
      const flow = state ? await consumeSsoFlow(db, state, iso()) : null;
      if (!flow) {
        await recordAttempt(scope, 'login_failure', {
          success: false,
          error: 'unknown, used or expired sign-in state',
        });
        return back('expired_state');
      }
      const stored = await findProvider(db, flow.providerId);
      const trace = flow.purpose === 'test' ? new Trace() : NO_TRACE;
      try {
        if (error)
          throw new ProviderFailure(
            'invalid_credentials',
            `The identity provider refused: ${description ?? error}`,
          );
        if (!stored || stored.method !== 'sso')
          throw new ProviderFailure('misconfigured', 'The sign-in provider no longer exists');
        const provider = resolve(stored);
        if (provider.method !== 'sso')
          throw new ProviderFailure('misconfigured', 'Not a single sign-on provider');
        const configuration = await ssoConfiguration(
          provider.id,
          provider.config,
          provider.secrets,
          provider.updatedAt,
          trace,
        );
        const callbackUrl = new URL(request.url, publicUrl);
        const identity = await completeAuthorization(
          provider.id,
          configuration,
          provider.config,
          callbackUrl,
          { state: state as string, nonce: flow.nonce, codeVerifier: flow.codeVerifier },
          trace,
        );
        const access = await accessFor(db, provider, identity);
        if (provider.config.requireMappedGroup && !access.matched) {
          throw ProviderFailure.refused('notAllowed');
        }
        if (flow.purpose === 'test') {
          const { user } = await applyIdentity(db, identity, access, iso(), { dryRun: true });
          await saveSsoTestResult(db, flow.testId as string, {
            ok: true,
            provider: provider.id,
            method: 'sso',
            steps: trace.steps,
            user: toPublicUser(user),
            role: access.role,
            assignments: await describeMappedAssignments(db, access.assignments),
            groups: identity.groups,
            claims: identity.claims ?? null,
          });
          return reply.redirect(
            `/auth-test?sso_test=${encodeURIComponent(flow.testId as string)}`,
            303,
          );
        }
        const { user } = await applyIdentity(db, identity, access, iso());
        const code = randomBytes(32).toString('base64url');
        await insertSsoCode(
          db,
          code,
          user.id,
          provider.id,
          iso(),
          new Date(now() + SSO_CODE_TTL_MS).toISOString(),
        );
        const next =
          flow.returnTo && flow.returnTo !== '/'
            ? `&next=${encodeURIComponent(flow.returnTo)}`
            : '';
        return reply.redirect(
          `/login?sso_code=${encodeURIComponent(code)}&sso_provider=${encodeURIComponent(provider.id)}${next}`,
          303,
        );
      } catch (failure) {
        const message = failure instanceof Error ? failure.message : String(failure);
        if (flow.purpose === 'test') {
          await saveSsoTestResult(db, flow.testId as string, {
            ok: false,
            provider: flow.providerId,
            method: 'sso',
            steps: [
              ...trace.steps,
              { name: 'Result', ok: false, ms: 0, detail: null, error: message },
            ],
            user: null,
            role: null,
            assignments: [],
            groups: [],
            claims: null,
          });
          return reply.redirect(
            `/auth-test?sso_test=${encodeURIComponent(flow.testId as string)}`,
            303,
          );
        }
        await recordAttempt(scope, 'login_failure', { success: false, error: message });
        return back(ssoErrorCode(failure));
      }
    },
  );

  /** Exchanges the callback's one-time code for a session (spec §7: credentials + ssoConfig). */
  app.post(
    '/api/auth/sso',
    {
      config: { access: { public: true }, loginRoute: true, responses: loginRefusals },
      schema: {
        operationId: 'signInSso',
        tags: ['auth'],
        summary: 'Sign in with the one-time code of single sign-on',
        body: SsoLoginSchema,
        response: loginResponses,
      },
    },
    async (request, reply) => {
      if (devMode) return failure(reply, 400, 'AUTH_METHOD_DISABLED', DEV_MODE_MESSAGE);
      const provider = await providerFor(db, 'sso', request.body.ssoConfig, 'ssoConfig');
      const scope: SignInScope = { db, now, request, method: 'sso' };
      // One-time codes are counted per provider and address only: no address may slow single
      // sign-on down for everyone.
      const reservation = await reserveSignIn(scope, `sso:${provider.id}`, { accountWide: false });
      if (!reservation.granted) {
        const { wait } = reservation;
        const message = throttledMessage(wait);
        await recordAttempt(scope, 'login_throttled', { success: false, error: message });
        reply.header('retry-after', String(wait));
        return failure(reply, 429, 'TOO_MANY_ATTEMPTS', message, { retryAfter: wait });
      }
      const userId = await consumeSsoCode(db, request.body.credentials, provider.id, iso());
      const user = userId ? await findUserById(db, userId) : null;
      if (!user || !user.isActive) {
        const message =
          'This sign-in code is not valid (used, expired or unknown). Please sign in again.';
        await recordAttempt(scope, 'login_failure', { success: false, error: message });
        return failure(reply, 401, 'INVALID_CREDENTIALS', message);
      }
      return openSession(scope, user, reservation.keys);
    },
  );

  /** Any other method: spec §5's answer, recorded like every attempt (spec §8). */
  app.post(
    '/api/auth/:method',
    {
      config: {
        access: { public: true },
        loginRoute: true,
        responses: {
          400: [
            `${INVALID_METHOD_MESSAGE} (\`INVALID_AUTH_METHOD\`).`,
            `${DEV_MODE_MESSAGE} (\`AUTH_METHOD_DISABLED\`).`,
          ],
        },
      },
      schema: {
        operationId: 'signInUnknownMethod',
        tags: ['auth'],
        summary: 'Sign in with an unknown method (refused)',
        params: z.object({ method: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const message = devMode ? DEV_MODE_MESSAGE : INVALID_METHOD_MESSAGE;
      await recordRefusedAttempt(db, now, request, message);
      return devMode
        ? failure(reply, 400, 'AUTH_METHOD_DISABLED', message)
        : failure(reply, 400, 'INVALID_AUTH_METHOD', message);
    },
  );
};

export default providerRoutes;
