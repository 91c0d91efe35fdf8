/**
 * Authentication and authorisation for every route. Each route declares its access in its
 * options (`config.access`): public, or a requirement (permissions with all/any, roles, the scope
 * they are checked in). A route under /api without a declaration cannot even be registered.
 *
 * On each request the bearer token is resolved to a live session (not revoked, not expired, user
 * active), the user must have changed a default password unless the route allows otherwise, and
 * the requirement is checked with core/access; a denial answers 403 with the exact reason.
 */
import {
  AppError,
  resolveScope,
  type AccessRequirement,
  type AuditRing,
  type PermissionId,
  type RouteScope,
  type SystemRoleId,
} from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db';
import { createSessionResolver, type ResolvedSession } from '../auth/session-resolver';
import { findSessionById, touchSession, type SessionRecord } from '../auth/session-repository';
import type { ChangeTracker } from '../db/change-tracker';
import { requiresPasswordChange } from '../auth/password-change';
import type { UserRecord } from '../auth/user-repository';
import type { SignedQuery, UrlSigner } from '../storage/signed-urls';
import type { AccessService } from '../access/access-service';
import { getRolesVersion as currentRolesVersion } from '../access/access-repository';
import type { SignedInActor } from '../actor';

/** What a route declares about who may call it. */
export type RouteAccess =
  | { public: true }
  | {
      public?: false;
      /** Permissions required; none means any signed-in user. */
      permissions?: readonly PermissionId[];
      mode?: 'all' | 'any';
      roles?: readonly SystemRoleId[];
      /**
       * Where the permissions are checked: the context named by a path parameter, `any`, or (by
       * default) the system context. Data, so the authorization matrix test can resolve it too.
       */
      scope?: RouteScope;
      /** Reachable while the user still has to change their password. */
      allowDuringPasswordChange?: boolean;
      /**
       * A GET that an `<img>`/`<video>`/link opens: without a bearer token, a signed URL
       * (storage/signed-urls.ts) speaks for the session it was made for, which must still be live.
       */
      allowSignedUrl?: boolean;
    };

export interface RequestAuth {
  user: UserRecord;
  session: SessionRecord;
  /** Version of the custom roles read with the session. */
  rolesVersion: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Sign-in routes answer errors with the spec's `{ success: false, error }` as well. */
    loginRoute?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyInstance {
    /** Signs file URLs for one viewer's session (storage/signed-urls.ts). */
    urlSigner: UrlSigner;
    /** The in-memory audit log of the last 1000 permission checks (spec §6). */
    auditRing: AuditRing;
    /** The permission model: compiled engine, roles, caches. */
    access: AccessService;
    /** Every declared route (`METHOD /url` → its access), for the authorization matrix tests. */
    routeAccess: Map<string, RouteAccess>;
    /**
     * Checks the request's sign-in again, from the database (not the cache), and refuses as at
     * the request's start (401) when its session has ended since (signed out, revoked, expired)
     * or its user was deactivated: for work that outlasts the start of a long request (the last
     * byte of a resumable upload).
     */
    recheckSignIn(request: FastifyRequest): Promise<void>;
    /**
     * The live sign-in a bearer token stands for, judged as a request's would be (session live,
     * user active, no password change pending), or the refusal's code: for what is not a request,
     * the live channel's connections and their events (platform/live).
     */
    signInOf(
      token: string,
    ): Promise<
      SignIn | { refused: 'UNAUTHENTICATED' | 'SESSION_EXPIRED' | 'PASSWORD_CHANGE_REQUIRED' }
    >;
  }
}

/** A token's live sign-in: its session and user. */
export interface SignIn {
  user: UserRecord;
  session: SessionRecord;
}

/** Paths that must declare their access. Static files and the SPA fallback are public by nature. */
export function mustDeclareAccess(url: string): boolean {
  return url.startsWith('/api') || url === '/healthz' || url === '/readyz';
}

/** The stand-in session of dev mode's developer admin. */
function devSession(userId: string, at: number, address: string): SessionRecord {
  const iso = new Date(at).toISOString();
  return {
    id: 'dev-mode',
    userId,
    method: 'disabled',
    createdAt: iso,
    expiresAt: new Date(at + 24 * 3_600_000).toISOString(),
    lastUsedAt: iso,
    revokedAt: null,
    ipAddress: address,
    userAgent: null,
  };
}

/** Session last-used times are written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * `Authorization: Bearer <token>`. The scheme name is case-insensitive (RFC 9110 §11.1), and one
 * or more spaces may separate it from the token; the token is our base64url value.
 */
const BEARER = /^bearer +([A-Za-z0-9_-]{20,128})$/i;

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

const NOT_AUTHENTICATED = 'User not authenticated';

/** The signed-in user of a request on a non-public route (the access plugin has set it). */
export function currentUser(request: FastifyRequest): UserRecord {
  const user = request.auth?.user;
  if (!user) throw new AppError('UNAUTHENTICATED', NOT_AUTHENTICATED);
  return user;
}

/** The signed-in user of a request as the actor of the change it makes (platform/actor.ts). */
export function actorOf(request: FastifyRequest): SignedInActor {
  const user = currentUser(request);
  return { id: user.id, username: user.username, requestId: request.id };
}

export interface AccessPluginOptions {
  db: Db;
  now: () => number;
  access: AccessService;
  /**
   * Dev mode (never in production; config refuses it): a request without a token is the
   * built-in developer admin (spec §4, disabled mode).
   */
  devUser?: () => Promise<UserRecord>;
  /** Lets session lookups be cached where changes are observable (see session-resolver). */
  changes?: ChangeTracker | null;
  /** Verifies signed file URLs (routes with `allowSignedUrl`). */
  urlSigner: UrlSigner;
}

export default fp<AccessPluginOptions>(
  async function accessPlugin(
    app: FastifyInstance,
    { db, now, changes, access, devUser, urlSigner },
  ) {
    const resolveSession = createSessionResolver(db, changes ?? null);
    app.decorate('access', access);
    app.decorate('urlSigner', urlSigner);
    app.decorate('auditRing', access.audit);
    app.decorate('routeAccess', new Map<string, RouteAccess>());
    app.decorateRequest('auth', null);
    app.decorate('recheckSignIn', async (request: FastifyRequest) => {
      const auth = request.auth;
      if (!auth) throw new AppError('UNAUTHENTICATED', NOT_AUTHENTICATED);
      if (devUser && auth.session.id === 'dev-mode') return;
      const found = await findSessionById(db, auth.session.id);
      if (!found || !found.user.isActive || found.user.id !== auth.user.id) {
        throw new AppError('UNAUTHENTICATED', NOT_AUTHENTICATED);
      }
      const { session } = found;
      if (session.revokedAt !== null || Date.parse(session.expiresAt) <= now()) {
        throw new AppError('SESSION_EXPIRED', NOT_AUTHENTICATED);
      }
    });

    app.decorate('signInOf', async (token: string) => {
      if (!token && devUser) {
        const user = await devUser();
        await app.access.ensureUser(user, await currentRolesVersion(db));
        return { user, session: devSession(user.id, now(), '127.0.0.1') };
      }
      if (!token) return { refused: 'UNAUTHENTICATED' as const };
      const found = await resolveSession(token);
      if (!found || !found.user.isActive) return { refused: 'UNAUTHENTICATED' as const };
      const { session, user } = found;
      if (session.revokedAt !== null || Date.parse(session.expiresAt) <= now()) {
        return { refused: 'SESSION_EXPIRED' as const };
      }
      if (requiresPasswordChange(user)) return { refused: 'PASSWORD_CHANGE_REQUIRED' as const };
      // What is asked next (a topic's rule) reads the user's permissions as they are now.
      if (!app.access.isCurrent(user, found.rolesVersion)) {
        await app.access.ensureUser(user, found.rolesVersion);
      }
      return { user, session };
    });

    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      if (mustDeclareAccess(route.url)) {
        if (!access) {
          throw new Error(
            `Route ${String(route.method)} ${route.url} declares no access requirement (config.access).`,
          );
        }
        for (const method of [route.method].flat())
          app.routeAccess.set(`${method} ${route.url}`, access);
      }
      // The route's own guard, first of its hooks: it runs after the app's onRequest hooks and
      // before anything a plugin attached to the route (rate limits), as an app hook did. Public
      // routes get none. Being the route's, it knows its declaration without asking the request.
      if (access && !access.public) {
        route.onRequest = [guard(access), ...[route.onRequest ?? []].flat()];
      }
    });

    type Access = Exclude<RouteAccess, { public: true }>;

    /**
     * The request's authentication and authorisation. Returns nothing when it could decide at
     * once — the hot path: session and user cached (SQLite), permissions loaded — else a promise
     * of the same steps after a database read; throws (or rejects) with the refusal. The steps,
     * and what they read, are the same either way.
     */
    function authenticate(request: FastifyRequest, access: Access): Promise<void> | undefined {
      if (!urlSigner.isReady) return urlSigner.ready().then(() => authenticate(request, access));

      const token = bearerToken(request.headers.authorization);
      const at = now();
      const signedSession =
        !token && access.allowSignedUrl
          ? urlSigner.verify(request.url.split('?')[0] ?? '', request.query as SignedQuery)
          : null;
      if (!token && devUser) return authenticateDevUser(request, at);
      if (!token && !signedSession) throw new AppError('UNAUTHENTICATED', NOT_AUTHENTICATED);
      const found = token ? resolveSession(token) : findSessionById(db, signedSession as string);
      return found instanceof Promise
        ? found.then((resolved) => admit(request, access, resolved, at))
        : admit(request, access, found, at);
    }

    async function authenticateDevUser(request: FastifyRequest, at: number): Promise<void> {
      const user = await (devUser as () => Promise<UserRecord>)();
      request.auth = {
        user,
        session: devSession(user.id, at, request.ip),
        rolesVersion: await currentRolesVersion(db),
      };
      await app.access.ensureUser(user, request.auth.rolesVersion);
    }

    /** The session must be live and the user active; then the route's requirement. */
    function admit(
      request: FastifyRequest,
      access: Access,
      found: ResolvedSession | null,
      at: number,
    ): Promise<void> | undefined {
      if (!found || !found.user.isActive) throw new AppError('UNAUTHENTICATED', NOT_AUTHENTICATED);
      const { session } = found;
      if (session.revokedAt !== null || Date.parse(session.expiresAt) <= at) {
        throw new AppError('SESSION_EXPIRED', NOT_AUTHENTICATED);
      }
      if (at - Date.parse(session.lastUsedAt) > TOUCH_INTERVAL_MS) {
        const iso = new Date(at).toISOString();
        return touchSession(db, session.id, iso).then(() => {
          session.lastUsedAt = iso;
          return authorize(request, access, found);
        });
      }
      return authorize(request, access, found);
    }

    function authorize(
      request: FastifyRequest,
      access: Access,
      { user, session, rolesVersion }: ResolvedSession,
    ): Promise<void> | undefined {
      request.auth = { user, session, rolesVersion };

      if (requiresPasswordChange(user) && !access.allowDuringPasswordChange) {
        throw new AppError(
          'PASSWORD_CHANGE_REQUIRED',
          'You must change your password before continuing.',
        );
      }

      // The user's current permissions (reloaded only when their versions changed).
      if (!app.access.isCurrent(user, rolesVersion)) {
        return app.access.ensureUser(user, rolesVersion).then(() => decide(request, access, user));
      }
      decide(request, access, user);
      return undefined;
    }

    /** What the route requires, beyond a signed-in user (computed once per route). */
    const requirements = new WeakMap<Access, AccessRequirement | null>();
    const requirementOf = (access: Access): AccessRequirement | null => {
      let requirement = requirements.get(access);
      if (requirement === undefined) {
        const hasRequirement =
          (access.permissions?.length ?? 0) > 0 || (access.roles?.length ?? 0) > 0;
        requirement = hasRequirement
          ? {
              permissions: access.permissions ?? [],
              mode: access.mode ?? 'all',
              roles: access.roles ?? [],
            }
          : null;
        requirements.set(access, requirement);
      }
      return requirement;
    };

    function decide(request: FastifyRequest, access: Access, user: UserRecord): void {
      const requirement = requirementOf(access);
      if (requirement === null) return;
      const decision = app.access.decide(
        user.id,
        requirement,
        resolveScope(access.scope, request.params as Record<string, string | undefined>),
      );
      if (!decision.allowed) throw new AppError('FORBIDDEN', decision.reason);
    }

    /**
     * A route's guard. A callback hook rather than an async one: a request that can be decided at
     * once goes on without a promise or a turn of the microtask queue.
     */
    function guard(access: Access): onRequestHookHandler {
      return (request, _reply, done) => {
        let pending: Promise<void> | undefined;
        try {
          pending = authenticate(request, access);
        } catch (error) {
          return done(error as Error);
        }
        if (pending === undefined) return done();
        pending.then(() => done(), done);
      };
    }
  },
  { name: 'access' },
);
