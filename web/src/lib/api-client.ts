/**
 * The one fetch wrapper of the web app: same origin, JSON in and out, the bearer token of the
 * stored session, every non-2xx turned into an error carrying the server's code, message and
 * status, and a single handler for 401 (the session is over: clear it).
 */
import { AppError, isErrorCode, isStaleRevision } from '@learning-hub/core';
import type { z } from 'zod';
import { clearSession, readSession } from './auth/session-storage';

/** Message of every network failure (spec §8). */
export const NETWORK_ERROR_MESSAGE = 'Network error occurred';

/** Message of a 2xx answer that does not match the core contract. */
export const UNEXPECTED_RESPONSE = 'The server sent an unexpected response';

/** An API error whose code is not in the core catalogue: the code is kept as the server sent it. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, message: string, status: number, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** What every API call may throw. */
export type ClientError = AppError | ApiError;

export function isClientError(error: unknown): error is ClientError {
  return error instanceof AppError || error instanceof ApiError;
}

/** The error code of an API error, if it is one. */
export function errorCode(error: unknown): string | undefined {
  return isClientError(error) ? error.code : undefined;
}

/**
 * Whether a save was refused as based on a revision that is no longer the thing's: someone else
 * changed it since it was read (409 with core's STALE_REVISION_MESSAGE; components/stale-edit.tsx).
 */
export function isStaleEdit(error: unknown): boolean {
  return isClientError(error) && isStaleRevision(error);
}

export function isNetworkError(error: unknown): boolean {
  return error instanceof AppError && error.code === 'NETWORK_ERROR';
}

export interface RawResponse {
  status: number;
  ok: boolean;
  /** The parsed JSON body, or null when there is none or it is not JSON. */
  body: unknown;
}

export interface RawRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Send the stored session's bearer token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
  /** Let the request outlive the page (used for fire-and-forget logging). */
  keepalive?: boolean;
}

export interface RequestOptions extends RawRequestOptions {
  /**
   * Run the single 401 handler (clear the session) when the server answers 401. Default: true
   * whenever the bearer token was sent.
   */
  handleUnauthorized?: boolean;
}

type PasswordChangeRequiredListener = () => void;
const passwordChangeListeners = new Set<PasswordChangeRequiredListener>();
type ForbiddenListener = (path: string) => void;
const forbiddenListeners = new Set<ForbiddenListener>();

/**
 * Called when the server answers PASSWORD_CHANGE_REQUIRED, so the auth state can refresh itself.
 * Returns the unsubscribe function.
 */
export function onPasswordChangeRequired(listener: PasswordChangeRequiredListener): () => void {
  passwordChangeListeners.add(listener);
  return () => passwordChangeListeners.delete(listener);
}

/**
 * Called when the server answers 403 FORBIDDEN: the signed-in user's permissions may have changed
 * since the client last asked, so the auth state reloads them (the server is the authority).
 * Returns the unsubscribe function.
 */
export function onForbidden(listener: ForbiddenListener): () => void {
  forbiddenListeners.add(listener);
  return () => forbiddenListeners.delete(listener);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Sends a request and returns status and parsed body; throws only on network failure (an
 * AppError NETWORK_ERROR with the message 'Network error occurred').
 */
export async function rawRequest(
  path: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.auth !== false) {
    const token = readSession()?.token;
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new AppError('NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  let body: unknown = null;
  if (response.status !== 204) {
    const text = await response.text().catch(() => '');
    if (text) {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = null;
      }
    }
  }
  return { status: response.status, ok: response.ok, body };
}

const withServerMessage = new WeakSet<Error>();

/** True when the error's message is one the server wrote (not a client fallback). */
export function hasServerMessage(error: unknown): error is ClientError {
  return error instanceof Error && withServerMessage.has(error);
}

/** Turns a non-2xx response into an AppError (known code) or an ApiError (any other code). */
export function toClientError(status: number, body: unknown): ClientError {
  const data = isRecord(body) ? body : {};
  const code = typeof data.code === 'string' && data.code ? data.code : `HTTP_${status}`;
  const serverMessage =
    (typeof data.message === 'string' && data.message) ||
    (typeof data.error === 'string' && data.error) ||
    null;
  const message = serverMessage ?? `Request failed (HTTP ${status})`;
  const error = isErrorCode(code)
    ? new AppError(code, message, data.details)
    : new ApiError(code, message, status, data.details);
  if (serverMessage) withServerMessage.add(error);
  return error;
}

/**
 * Sends a request and returns the body parsed with `schema`; throws a ClientError for every
 * non-2xx answer. A 401 to an authenticated request clears the stored session.
 */
export async function apiRequest<T>(
  path: string,
  schema: z.ZodType<T> | null,
  options: RequestOptions = {},
): Promise<T> {
  const response = await checkedRequest(path, options);
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(response.body);
  if (!parsed.success) {
    throw new ApiError(
      'INVALID_RESPONSE',
      UNEXPECTED_RESPONSE,
      response.status,
      parsed.error.issues,
    );
  }
  return parsed.data;
}

/**
 * As apiRequest, but answers the body unread, for the few callers in the app's first load that
 * must not load a contract module and read the answer themselves (the settings applier).
 */
export async function apiRequestBody(path: string, options: RequestOptions = {}): Promise<unknown> {
  return (await checkedRequest(path, options)).body;
}

/** rawRequest, with every non-2xx answer thrown as a ClientError (and the 401 handler run). */
async function checkedRequest(path: string, options: RequestOptions): Promise<RawResponse> {
  const tokenSent = options.auth !== false ? (readSession()?.token ?? null) : null;
  const response = await rawRequest(path, options);
  if (!response.ok) {
    const error = toClientError(response.status, response.body);
    if (response.status === 401 && tokenSent && options.handleUnauthorized !== false) {
      // Only end the session the failed request used: a newer sign-in stays.
      if (readSession()?.token === tokenSent) clearSession();
    }
    if (error.code === 'PASSWORD_CHANGE_REQUIRED') {
      for (const listener of passwordChangeListeners) listener();
    }
    if (response.status === 403 && error.code === 'FORBIDDEN' && tokenSent) {
      for (const listener of forbiddenListeners) listener(path);
    }
    throw error;
  }
  return response;
}

/** Shorthands over apiRequest. */
export const api = {
  get: <T>(path: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    apiRequest(path, schema, { ...options, method: 'GET' }),
  post: <T>(path: string, body: unknown, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    apiRequest(path, schema, { ...options, method: 'POST', body }),
  put: <T>(path: string, body: unknown, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    apiRequest(path, schema, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body: unknown, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    apiRequest(path, schema, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, schema: z.ZodType<T> | null, options?: RequestOptions) =>
    apiRequest(path, schema, { ...options, method: 'DELETE' }),
};
