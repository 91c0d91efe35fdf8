/**
 * Auth state of spec §3/§4 (user, isAuthenticated, isLoading, requiresPasswordChange) for the
 * whole app. Loaded at start from the stored session, refreshed from GET /api/auth/me (user and
 * permission snapshot), kept in step with the stored session of this tab (401, expiry) and of other
 * tabs (`storage` events), and broadcast as core AUTH_STATE_CHANGED_EVENT on sign-in and sign-out.
 *
 * Dev mode (spec §4 "disabled"): when the server says it runs in dev mode, the app is signed in
 * as the server's built-in developer admin without any token: GET /api/auth/me answers for it.
 * A stored session (should one exist) still goes first.
 */
import {
  AUTH_STATE_CHANGED_EVENT,
  STORAGE_KEYS,
  type AccessSnapshot,
  type AuthMethod,
  type ChangePassword,
  type Credentials,
  type ProfileUpdate,
  type PublicUser,
} from '@learning-hub/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { onForbidden, onPasswordChangeRequired } from '../api-client';
import { syncStoredAuthMethod, useAuthConfig } from './auth-config';
import { logAuthEvent } from './auth-log';
import * as authService from './auth-service';
import {
  clearSession,
  readSession,
  subscribeSession,
  updateSessionUser,
  type StoredSession,
} from './session-storage';
import { liveClient } from '../live/use-live';

/** Query keys under this prefix belong to the signed-in user and are dropped on sign-out. */
export const USER_QUERY_PREFIX = 'user';

/**
 * How often the signed-in user's permission snapshot is reloaded while the tab is visible. It is
 * also reloaded when the window regains focus and at once after any call answers 403 FORBIDDEN:
 * an admin may have changed this user's role, permissions or assignments meanwhile.
 */
export const ACCESS_REFRESH_INTERVAL_MS = 60_000;

interface AuthData {
  user: PublicUser | null;
  access: AccessSnapshot | null;
  /** The stored session's token; null when signed out and in dev mode. */
  token: string | null;
  /** Signed in through dev mode (no token: the server treats every request as the developer). */
  devMode: boolean;
  expiresAt: string | null;
  isLoading: boolean;
  /** Set when the session could not be refreshed for a reason other than 401. */
  loadError: Error | null;
}

export interface AuthContextValue {
  user: PublicUser | null;
  /** The permission snapshot from GET /api/auth/me; the input of core's checks. */
  access: AccessSnapshot | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  requiresPasswordChange: boolean;
  loadError: Error | null;
  /**
   * Signs in; on success the user and permissions are refreshed before it resolves. Single
   * sign-on passes the one-time code as `credentials` and the provider's id.
   */
  login(
    method: AuthMethod,
    credentials: Credentials | string,
    provider?: string,
  ): Promise<authService.LoginResult>;
  /**
   * Ends the session on the server (success false when that failed) and says where the browser
   * goes next, if anywhere special. Local state is left to the caller.
   */
  logout(): Promise<authService.LogoutResult>;
  /** Clears the stored session, tokens and auth state of this browser. */
  signOutLocally(): void;
  /** Reloads user and permissions from the server (calls made meanwhile share one request). */
  refresh(): Promise<void>;
  /** Saves the signed-in user's profile (the developer admin's too, in dev mode). */
  updateProfile(changes: ProfileUpdate): ReturnType<typeof authService.updateProfile>;
  changePassword(payload: ChangePassword): ReturnType<typeof authService.changePassword>;
}

const SIGNED_OUT: AuthData = {
  user: null,
  access: null,
  token: null,
  devMode: false,
  expiresAt: null,
  isLoading: false,
  loadError: null,
};

function fromSession(session: StoredSession | null): AuthData {
  if (!session) return SIGNED_OUT;
  return {
    user: session.user,
    access: null,
    token: session.token,
    devMode: false,
    expiresAt: session.expiresAt,
    isLoading: true,
    loadError: null,
  };
}

function broadcast(isAuthenticated: boolean, user: PublicUser | null): void {
  window.dispatchEvent(
    new CustomEvent(AUTH_STATE_CHANGED_EVENT, {
      detail: { isAuthenticated, userId: user?.id ?? null },
    }),
  );
}

/** Whether a reload brought nothing new (so nothing needs to re-render). */
function sameData(a: AuthData, b: AuthData): boolean {
  return (
    a.token === b.token &&
    a.devMode === b.devMode &&
    a.expiresAt === b.expiresAt &&
    a.isLoading === b.isLoading &&
    a.loadError === b.loadError &&
    JSON.stringify(a.user) === JSON.stringify(b.user) &&
    JSON.stringify(a.access) === JSON.stringify(b.access)
  );
}

function errorStatus(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error
    ? Number((error as { status: unknown }).status)
    : undefined;
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * What identifies the sign-in a reload is for: the stored token, or DEV_MODE_KEY for dev mode. It
 * lives only in memory and is never sent anywhere.
 */
const DEV_MODE_KEY = Symbol('dev mode');
type SignInKey = string | typeof DEV_MODE_KEY;

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { config, isLoading: configLoading } = useAuthConfig();
  const serverDevMode = config.devMode;
  const [data, setData] = useState<AuthData>(() => fromSession(readSession()));
  const dataRef = useRef(data);
  const devModeRef = useRef(serverDevMode);

  const commit = useCallback((next: AuthData) => {
    dataRef.current = next;
    setData(next);
  }, []);

  /** The sign-in in force: the stored session's token, else dev mode's, else none. */
  const currentKey = useCallback((): SignInKey | null => {
    const token = readSession()?.token;
    if (token) return token;
    return devModeRef.current ? DEV_MODE_KEY : null;
  }, []);

  const applySignedOut = useCallback(() => {
    const previous = dataRef.current;
    if (previous.token === null && !previous.devMode && !previous.isLoading) return;
    commit(SIGNED_OUT);
    queryClient.removeQueries({ queryKey: [USER_QUERY_PREFIX] });
    if (previous.token !== null || previous.devMode) broadcast(false, previous.user);
  }, [commit, queryClient]);

  /** The GET /api/auth/me under way, and at most one reload queued behind it. */
  const inFlight = useRef<{
    key: SignInKey;
    promise: Promise<void>;
    queued: Promise<void> | null;
  } | null>(null);

  /** Set for the load at start (a stored session's first GET /api/auth/me), which takes it. */
  const startupLoad = useRef(false);

  const load = useCallback(
    async (key: SignInKey) => {
      const atStartup = startupLoad.current;
      startupLoad.current = false;
      try {
        const me = await authService.fetchMe();
        if (currentKey() !== key) return;
        let next: AuthData;
        if (key === DEV_MODE_KEY) {
          next = {
            user: me.user,
            access: me.access,
            token: null,
            devMode: true,
            // The server keeps no session for dev mode: nothing runs out.
            expiresAt: null,
            isLoading: false,
            loadError: null,
          };
        } else {
          updateSessionUser(me.user);
          const session = readSession();
          next = {
            user: me.user,
            access: me.access,
            token: key,
            devMode: false,
            expiresAt: session?.expiresAt ?? me.session.expiresAt,
            isLoading: false,
            loadError: null,
          };
        }
        const wasSignedIn = dataRef.current.access !== null;
        if (!sameData(dataRef.current, next)) {
          // The first answer for a stored session puts up the whole page behind the route's
          // loader: rendered as a transition, that render yields to the browser every few
          // milliseconds rather than holding it for its whole length (docs/front-end.md "Total
          // blocking time"). Every later answer (a sign-in, a reload) is committed at once: its
          // callers go on from the state it sets.
          if (atStartup) startTransition(() => commit(next));
          else commit(next);
        }
        if (key === DEV_MODE_KEY && !wasSignedIn) broadcast(true, me.user);
      } catch (error) {
        if (errorStatus(error) === 401 || currentKey() === null) {
          applySignedOut();
          return;
        }
        commit({
          ...dataRef.current,
          isLoading: false,
          loadError: error instanceof Error ? error : new Error(String(error)),
        });
      }
    },
    [applySignedOut, commit, currentKey],
  );

  const start = useCallback(
    (key: SignInKey) => {
      const promise = load(key).finally(() => {
        if (inFlight.current?.promise === promise) inFlight.current = null;
      });
      inFlight.current = { key, promise, queued: null };
      return promise;
    },
    [load],
  );

  const refresh = useCallback(async () => {
    const key = currentKey();
    if (key === null) {
      applySignedOut();
      return;
    }
    // A reload asked for while one is under way runs once that one is done (it may have started
    // before the change the caller wants to see); every caller meanwhile shares that one reload.
    const current = inFlight.current;
    if (current?.key === key) {
      current.queued ??= current.promise.then(() => start(key));
      return current.queued;
    }
    return start(key);
  }, [applySignedOut, currentKey, start]);

  // Load at start: a stored session is confirmed and completed by GET /api/auth/me.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!dataRef.current.token) return;
    startupLoad.current = true;
    void refresh();
  }, [refresh]);

  /** Dev mode without a stored session: the developer admin, loaded from /me with no token. */
  const enterDevMode = useCallback(() => {
    if (readSession()) return;
    const previous = dataRef.current;
    if (!previous.devMode || previous.user === null) {
      commit({ ...SIGNED_OUT, devMode: true, isLoading: true });
    }
    void refresh();
  }, [commit, refresh]);

  // The server's dev mode decides whether a visitor without a session is signed in, and which
  // method this browser keeps (spec §4).
  useEffect(() => {
    devModeRef.current = serverDevMode;
    if (configLoading) return;
    syncStoredAuthMethod(config);
    if (serverDevMode) enterDevMode();
    else if (dataRef.current.devMode) applySignedOut();
  }, [configLoading, config, serverDevMode, enterDevMode, applySignedOut]);

  // This tab's stored session: cleared by a 401, by expiry on read or by signing out.
  useEffect(
    () =>
      subscribeSession((session, reason) => {
        if (session) return;
        const previous = dataRef.current;
        if (reason === 'expired' && previous.user) {
          logAuthEvent({
            username: previous.user.username,
            event: 'session_expired',
            authMethod: previous.user.authMethod,
          });
        }
        applySignedOut();
        if (devModeRef.current) enterDevMode();
      }),
    [applySignedOut, enterDevMode],
  );

  // Other tabs: a sign-out there signs this tab out; a sign-in there is picked up here.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== STORAGE_KEYS.session) return;
      const session = readSession();
      if (!session) {
        if (dataRef.current.token === null) return;
        applySignedOut();
        if (devModeRef.current) enterDevMode();
      } else if (session.token !== dataRef.current.token) {
        commit(fromSession(session));
        void refresh();
        broadcast(true, session.user);
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [applySignedOut, commit, enterDevMode, refresh]);

  // A session that runs out while the app is open ends on time.
  useEffect(() => {
    if (!data.expiresAt) return;
    const delay = Math.min(
      Math.max(Date.parse(data.expiresAt) - Date.now(), 0) + 50,
      MAX_TIMEOUT_MS,
    );
    const timer = window.setTimeout(() => readSession(), delay);
    return () => window.clearTimeout(timer);
  }, [data.expiresAt]);

  // The server says a password change is due: reload the user to learn it.
  useEffect(() => onPasswordChangeRequired(() => void refresh()), [refresh]);

  // The server refused a call: this user's permissions changed, so reload them (the guards and
  // menus then follow the server's answer).
  useEffect(
    () =>
      onForbidden(() => {
        if (dataRef.current.token || dataRef.current.devMode) void refresh();
      }),
    [refresh],
  );

  // While signed in, permissions are reloaded when the window regains focus and every minute
  // while the tab is visible.
  const signedIn = data.token !== null || data.devMode;
  useEffect(() => {
    if (!signedIn) return;
    const reload = () => {
      if (document.visibilityState !== 'hidden') void refresh();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const timer = window.setInterval(reload, ACCESS_REFRESH_INTERVAL_MS);
    window.addEventListener('focus', reload);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', reload);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [signedIn, refresh]);

  const login = useCallback<AuthContextValue['login']>(
    async (method, credentials, provider) => {
      commit({ ...dataRef.current, isLoading: true });
      const result = await authService.login(method, credentials, { provider });
      if (!result.success) {
        commit({ ...dataRef.current, isLoading: false });
        return result;
      }
      const { session } = result;
      commit({ ...fromSession(session), isLoading: true });
      await refresh();
      if (dataRef.current.token === session.token) broadcast(true, dataRef.current.user);
      return result;
    },
    [commit, refresh],
  );

  // This tab's live channel closes first: the server ending its connection as the session ends
  // must not start a second sign-out (a session check, and the guard's redirect) beside this one.
  const logout = useCallback(() => {
    liveClient.stop();
    return authService.logout(dataRef.current.user);
  }, []);

  const signOutLocally = useCallback(() => {
    clearSession();
    applySignedOut();
    // Dev mode cannot be signed out of (spec §4: always treated as authenticated).
    if (devModeRef.current) enterDevMode();
  }, [applySignedOut, enterDevMode]);

  const updateProfile = useCallback<AuthContextValue['updateProfile']>(
    async (changes: ProfileUpdate) => {
      const { token, devMode } = dataRef.current;
      const result = await authService.updateProfile(changes, { devMode: !token && devMode });
      if (result.success && (dataRef.current.token || dataRef.current.devMode)) {
        commit({ ...dataRef.current, user: result.user });
      }
      return result;
    },
    [commit],
  );

  const changePassword = useCallback<AuthContextValue['changePassword']>(
    async (payload) => {
      const result = await authService.changePassword(payload);
      if (result.success) await refresh();
      return result;
    },
    [refresh],
  );

  // Until the server said whether it runs in dev mode, and until dev mode is entered once it
  // said so (the effect above runs after this render, and a guard must not send the developer
  // to /login meanwhile), a visitor without a session is not yet known to be signed out.
  const pendingDevMode = data.token === null && !data.devMode && (configLoading || serverDevMode);

  const value = useMemo<AuthContextValue>(() => {
    const { user, access, token, devMode, isLoading, loadError } = data;
    return {
      user,
      access,
      isAuthenticated: user !== null && (token !== null || devMode),
      isLoading: isLoading || pendingDevMode,
      requiresPasswordChange: !!user && (user.isDefaultPassword || user.mustChangePassword),
      loadError,
      login,
      logout,
      signOutLocally,
      refresh,
      updateProfile,
      changePassword,
    };
  }, [data, pendingDevMode, login, logout, signOutLocally, refresh, updateProfile, changePassword]);

  return <AuthContext value={value}>{children}</AuthContext>;
}

/** The auth state; throws outside AuthProvider. */
export function useAuth(): AuthContextValue {
  const value = use(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
