/**
 * Admin API for sign-in: turn methods on and off, create and edit providers (secrets are
 * write-only: an answer says whether one is set, never what it is), test a provider's connection,
 * and dry-run a sign-in (the /auth-test page) that shows every step without creating a session or
 * an account.
 */
import { randomBytes } from 'node:crypto';
import {
  AppError,
  AuthSettingsSchema,
  ConnectionTestResultSchema,
  contextKey,
  MethodToggleSchema,
  ProviderInputSchema,
  ProviderViewSchema,
  SignInFailureListSchema,
  SignInFailureQuerySchema,
  SignInTestRequestSchema,
  SignInTestResultSchema,
  SsoTestStartResponseSchema,
  SsoTestStartSchema,
  type ProviderInput,
  type ProviderView,
  type SignInTestResult,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAccessAudit } from '../../platform/access/access-repository';
import { describeContextTarget } from '../../platform/access/context-labels';
import { listSignInFailures } from '../../platform/auth/auth-event-repository';
import { applyIdentity, describeMappedAssignments } from '../../platform/auth/identity-mapping';
import {
  deleteProvider,
  findProvider,
  findSsoTest,
  insertProvider,
  insertSsoFlow,
  listProviders,
  setMethodEnabled,
  updateProvider,
  SIGN_IN_METHODS,
  type SignInMethod,
  type StoredProvider,
} from '../../platform/auth/provider-repository';
import { testLdapConnection } from '../../platform/auth/providers/ldap';
import { testMoodleConnection } from '../../platform/auth/providers/moodle';
import { methodStates, resolve } from '../../platform/auth/providers/registry';
import {
  ssoConfiguration,
  startAuthorization,
  testSsoConnection,
} from '../../platform/auth/providers/sso';
import { ProviderFailure, Trace } from '../../platform/auth/providers/types';
import { toPublicUser } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import {
  accessFor,
  authenticateWith,
  ssoRedirectUri,
} from '../../platform/auth/providers/dispatch';
import { createdAnswer } from '../../platform/http/openapi';
import { pageWindow, sendPage } from '../../platform/paging';

const ACCESS = { permissions: ['system.settings' as const], roles: ['admin' as const] };
/** What opens the admin area (the /admin route's requirement). */
const ADMIN_AREA = { permissions: ['system.admin' as const], roles: ['admin' as const] };
const ProviderParams = z.object({ providerId: z.string().min(1).max(40) });
const SSO_TEST_TTL_MS = 10 * 60_000;

function view(p: StoredProvider): ProviderView {
  return {
    id: p.id,
    method: p.method,
    label: p.label,
    enabled: p.enabled,
    settings: (p.settings ?? {}) as Record<string, unknown>,
    secretsSet: {
      bindPassword: Boolean(p.secrets.bindPassword),
      clientSecret: Boolean(p.secrets.clientSecret),
    },
    updatedAt: p.updatedAt,
  };
}

/** New secrets: a field left out keeps the stored value, "" removes it, anything else replaces it. */
function mergeSecrets(
  stored: StoredProvider['secrets'],
  given: Record<string, string | undefined>,
) {
  const out = { ...stored } as Record<string, string | undefined>;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (value === '') delete out[key];
    else out[key] = value;
  }
  return out as StoredProvider['secrets'];
}

/** Ends a failed trace with the overall reason, unless its last step already says exactly that. */
function addOutcome(trace: Trace, message: string): void {
  if (trace.steps.at(-1)?.error === message) return;
  trace.steps.push({ name: 'Result', ok: false, ms: 0, detail: null, error: message });
}

/** The 400 of a provider whose mapping names what does not exist (API description). */
const UNKNOWN_MAPPED_ROLE =
  'The mapping of group "<group>" names no such course or department, or an unknown role.';

const adminAuthRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => number;
  devMode: boolean;
  publicUrl: string;
}> = async (app, { db, now, devMode, publicUrl }) => {
  const iso = () => new Date(now()).toISOString();
  const audit = (request: FastifyRequest, action: string, details: Record<string, unknown>) =>
    recordAccessAudit(db, iso(), {
      action,
      actorId: request.auth?.user.id ?? null,
      actorUsername: request.auth?.user.username ?? null,
      details,
      requestId: request.id,
    });

  /** Mapping rules must point at courses and departments that exist, and at known roles. */
  async function checkInput(input: ProviderInput): Promise<void> {
    if (input.method === 'moodle') return;
    for (const rule of input.settings.contextMapping) {
      const context =
        rule.context.type === 'course'
          ? { type: 'course' as const, courseId: rule.context.courseId }
          : { type: 'department' as const, departmentId: rule.context.departmentId };
      if ((await describeContextTarget(db, context)) === null) {
        throw new AppError(
          'VALIDATION_ERROR',
          `The mapping of group "${rule.group}" names no such ${context.type}: ${contextKey(context)}`,
        );
      }
    }
    const roles = await app.access.refreshRoles();
    for (const role of [
      input.settings.defaultRole,
      ...input.settings.roleMapping.map((r) => r.role),
    ]) {
      if (!roles.get(role))
        throw new AppError('VALIDATION_ERROR', `Unknown role in the mapping: ${role}`);
    }
  }

  app.get(
    '/api/admin/sign-in-failures',
    {
      config: { access: ADMIN_AREA },
      schema: {
        operationId: 'listSignInFailures',
        tags: ['sign-in-settings'],
        summary: 'The latest failed sign-in attempts (the start page of an admin)',
        querystring: SignInFailureQuerySchema,
        response: { 200: SignInFailureListSchema },
      },
    },
    async (request, reply) => {
      const { events, total } = await listSignInFailures(db, pageWindow(request.query));
      return sendPage(request, reply, {
        items: events.map((e) => ({
          id: e.id,
          occurredAt: e.occurredAt,
          username: e.username,
          method: e.authMethod,
          reason: e.error,
          throttled: e.event === 'login_throttled',
        })),
        total,
        page: request.query.page,
        pageSize: request.query.pageSize,
      });
    },
  );

  app.get(
    '/api/admin/auth/settings',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'getSignInSettings',
        tags: ['sign-in-settings'],
        summary: 'The sign-in settings',
        response: { 200: AuthSettingsSchema },
      },
    },
    async () => ({
      methods: await methodStates(db),
      devMode,
      ssoRedirectUri: ssoRedirectUri(publicUrl),
      providers: (await listProviders(db)).map(view),
    }),
  );

  app.put(
    '/api/admin/auth/methods/:method',
    {
      config: { access: ACCESS, responses: { 409: ['At least one sign-in method must stay on'] } },
      schema: {
        operationId: 'updateSignInMethod',
        tags: ['sign-in-settings'],
        summary: 'Turn a sign-in method on or off',
        params: z.object({ method: z.enum(SIGN_IN_METHODS as [SignInMethod, ...SignInMethod[]]) }),
        body: MethodToggleSchema,
        response: { 200: AuthSettingsSchema },
      },
    },
    async (request) => {
      const { method } = request.params;
      const states = await methodStates(db);
      if (!request.body.enabled && Object.entries(states).every(([m, on]) => m === method || !on)) {
        throw new AppError('CONFLICT', 'At least one sign-in method must stay on');
      }
      await setMethodEnabled(db, method, request.body.enabled, iso());
      await audit(request, 'auth_method.set', { method, enabled: request.body.enabled });
      return {
        methods: await methodStates(db),
        devMode,
        ssoRedirectUri: ssoRedirectUri(publicUrl),
        providers: (await listProviders(db)).map(view),
      };
    },
  );

  app.post(
    '/api/admin/auth/providers',
    {
      config: {
        access: ACCESS,
        responses: {
          201: createdAnswer('/api/admin/auth/providers/<id>'),
          400: [UNKNOWN_MAPPED_ROLE],
          409: ['A provider with the id "<id>" already exists'],
        },
      },
      schema: {
        operationId: 'createSignInProvider',
        tags: ['sign-in-settings'],
        summary: 'Add a sign-in provider',
        body: ProviderInputSchema,
        response: { 201: ProviderViewSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      if (await findProvider(db, input.id)) {
        throw new AppError('CONFLICT', `A provider with the id "${input.id}" already exists`);
      }
      await checkInput(input);
      await insertProvider(db, { ...input, secrets: mergeSecrets({}, input.secrets) }, iso());
      await audit(request, 'auth_provider.create', { provider: input.id, method: input.method });
      return reply
        .code(201)
        .header('location', `/api/admin/auth/providers/${encodeURIComponent(input.id)}`)
        .send(view((await findProvider(db, input.id)) as StoredProvider));
    },
  );

  app.put(
    '/api/admin/auth/providers/:providerId',
    {
      config: {
        access: ACCESS,
        responses: {
          400: [
            UNKNOWN_MAPPED_ROLE,
            'A provider’s id cannot change',
            'A provider’s method cannot change',
          ],
        },
      },
      schema: {
        operationId: 'updateSignInProvider',
        tags: ['sign-in-settings'],
        summary: 'Change a sign-in provider',
        params: ProviderParams,
        body: ProviderInputSchema,
        response: { 200: ProviderViewSchema },
      },
    },
    async (request) => {
      const input = request.body;
      const stored = await findProvider(db, request.params.providerId);
      if (!stored) throw new AppError('NOT_FOUND', 'Provider not found');
      if (input.id !== stored.id)
        throw new AppError('VALIDATION_ERROR', 'A provider’s id cannot change');
      if (input.method !== stored.method)
        throw new AppError('VALIDATION_ERROR', 'A provider’s method cannot change');
      await checkInput(input);
      await updateProvider(
        db,
        { ...input, secrets: mergeSecrets(stored.secrets, input.secrets) },
        iso(),
      );
      await audit(request, 'auth_provider.update', {
        provider: input.id,
        secretsChanged: Object.entries(input.secrets)
          .filter(([, v]) => v !== undefined)
          .map(([k]) => k),
      });
      return view((await findProvider(db, input.id)) as StoredProvider);
    },
  );

  app.delete(
    '/api/admin/auth/providers/:providerId',
    {
      config: { access: ACCESS, responses: { 204: 'Removed.', 404: ['Provider not found'] } },
      schema: {
        operationId: 'deleteSignInProvider',
        tags: ['sign-in-settings'],
        summary: 'Remove a sign-in provider',
        params: ProviderParams,
      },
    },
    async (request, reply) => {
      if (!(await deleteProvider(db, request.params.providerId)))
        throw new AppError('NOT_FOUND', 'Provider not found');
      await audit(request, 'auth_provider.delete', { provider: request.params.providerId });
      return reply.code(204).send();
    },
  );

  async function provider(id: string) {
    const stored = await findProvider(db, id);
    if (!stored) throw new AppError('NOT_FOUND', 'Provider not found');
    return resolve(stored);
  }

  app.post(
    '/api/admin/auth/providers/:providerId/test',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'testSignInProviderConnection',
        tags: ['sign-in-settings'],
        summary: 'Test the connection to a provider',
        params: ProviderParams,
        response: { 200: ConnectionTestResultSchema },
      },
    },
    async (request) => {
      const p = await provider(request.params.providerId);
      const trace = new Trace();
      try {
        if (p.method === 'ldap') await testLdapConnection(p.config, p.secrets, trace);
        else if (p.method === 'moodle') await testMoodleConnection(p.config, trace);
        else await testSsoConnection(p.id, p.config, p.secrets, p.updatedAt, trace);
        return { ok: true, steps: trace.steps };
      } catch (error) {
        addOutcome(trace, (error as Error).message);
        return { ok: false, steps: trace.steps };
      }
    },
  );

  app.post(
    '/api/admin/auth/test',
    {
      config: {
        access: ACCESS,
        responses: {
          400: [
            'Single sign-on is tested through the provider: start it with /api/admin/auth/test/sso/start',
          ],
          404: ['Provider not found'],
        },
      },
      schema: {
        operationId: 'testSignIn',
        tags: ['sign-in-settings'],
        summary: 'Try a sign-in through a provider',
        body: SignInTestRequestSchema,
        response: { 200: SignInTestResultSchema },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const p = await provider(request.body.provider);
      if (p.method === 'sso')
        throw new AppError(
          'BAD_REQUEST',
          'Single sign-on is tested through the provider: start it with /api/admin/auth/test/sso/start',
        );
      const trace = new Trace();
      const result: SignInTestResult = {
        ok: false,
        provider: p.id,
        method: p.method,
        steps: trace.steps,
        user: null,
        role: null,
        assignments: [],
        groups: [],
        claims: null,
      };
      try {
        const identity = await authenticateWith(p, username, password, trace);
        const access = await accessFor(db, p, identity);
        trace.note(
          'Map groups to roles',
          `role ${access.role}; ${access.assignments.length} context assignment(s)${access.matched ? '' : '; no mapping rule matched'}`,
          !(p.method === 'ldap' && p.config.requireMappedGroup && !access.matched),
        );
        const { user, created } = await trace.step(
          'Account that would be used',
          () => applyIdentity(db, identity, access, iso(), { dryRun: true }),
          (a) =>
            a.created
              ? `a new account ${a.user.username} would be created`
              : `the existing account ${a.user.username} would be updated`,
        );
        void created;
        result.ok = trace.steps.every((s) => s.ok);
        result.user = toPublicUser(user);
        result.role = access.role;
        result.assignments = await describeMappedAssignments(db, access.assignments);
        result.groups = identity.groups;
      } catch (error) {
        if (!(error instanceof ProviderFailure) && !(error instanceof AppError)) throw error;
        addOutcome(trace, error.message);
      }
      return result;
    },
  );

  app.post(
    '/api/admin/auth/test/sso/start',
    {
      config: {
        access: ACCESS,
        responses: {
          201: createdAnswer('/api/admin/auth/test/sso/<testId>', 'Started.'),
          400: ['Not a single sign-on provider'],
          404: ['Provider not found'],
          503: ['The identity provider cannot be reached (the message says why).'],
        },
      },
      schema: {
        operationId: 'startSsoTest',
        tags: ['sign-in-settings'],
        summary: 'Start a single sign-on test (its result is read at its Location)',
        body: SsoTestStartSchema,
        response: { 201: SsoTestStartResponseSchema },
      },
    },
    async (request, reply) => {
      const p = await provider(request.body.provider);
      if (p.method !== 'sso') throw new AppError('BAD_REQUEST', 'Not a single sign-on provider');
      const configuration = await ssoConfiguration(
        p.id,
        p.config,
        p.secrets,
        p.updatedAt,
        new Trace(),
      ).catch((error: Error) => {
        throw new AppError('SERVICE_UNAVAILABLE', error.message);
      });
      const start = await startAuthorization(configuration, p.config, ssoRedirectUri(publicUrl));
      const testId = randomBytes(16).toString('base64url');
      await insertSsoFlow(
        db,
        start.state,
        {
          providerId: p.id,
          codeVerifier: start.codeVerifier,
          nonce: start.nonce,
          purpose: 'test',
          returnTo: null,
          actorId: request.auth?.user.id ?? null,
          testId,
          expiresAt: new Date(now() + SSO_TEST_TTL_MS).toISOString(),
        },
        iso(),
      );
      return reply
        .code(201)
        .header('location', `/api/admin/auth/test/sso/${testId}`)
        .send({ testId, authorizationUrl: start.url });
    },
  );

  app.get(
    '/api/admin/auth/test/sso/:testId',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'getSsoTest',
        tags: ['sign-in-settings'],
        summary: 'The result of a single sign-on test',
        params: z.object({ testId: z.string().min(10).max(100) }),
        response: { 200: SignInTestResultSchema, 202: z.object({ pending: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const test = await findSsoTest(db, request.params.testId);
      if (!test) throw new AppError('NOT_FOUND', 'No such test');
      if (test.result === null) return reply.code(202).send({ pending: true as const });
      const parsed = SignInTestResultSchema.safeParse(test.result);
      if (!parsed.success)
        throw new AppError('INTERNAL_ERROR', 'The stored test result is unreadable');
      return parsed.data;
    },
  );
};

export default adminAuthRoutes;
