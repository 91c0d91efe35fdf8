/**
 * A fetch stand-in for tests: the network boundary is the only thing tests replace. Routes are
 * keyed 'METHOD /path'; each answers with { status, body }, a function of the request, or
 * NETWORK_FAILURE (fetch rejects as browsers do when the server cannot be reached).
 */
import { defaultUserSettings } from '@learning-hub/core';
import { vi } from 'vitest';

export const NETWORK_FAILURE = Symbol('network failure');

export interface MockRequest {
  method: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface MockAnswer {
  status?: number;
  body?: unknown;
}

export type MockResult = MockAnswer | typeof NETWORK_FAILURE;
export type MockRoute = MockResult | ((request: MockRequest) => MockResult | Promise<MockResult>);
export type MockRoutes = Record<string, MockRoute>;

/**
 * Answers every app needs in the background: the auth config, the auth log, the signed-in
 * person's settings (the defaults: the settings applier asks for them), the wiki's lists the
 * start page shows and the announcements (the start page's and the shell's banner): empty.
 */
export const DEFAULT_ROUTES: MockRoutes = {
  'GET /api/settings': {
    body: {
      settings: defaultUserSettings(),
      emailAvailable: false,
      startPages: [{ path: '/', label: 'Home' }],
    },
  },
  'GET /api/auth/config': {
    body: {
      methods: ['local'],
      defaultMethod: 'local',
      devMode: false,
      providers: { ldap: [], moodle: [], sso: [] },
    },
  },
  'POST /api/auth/log': { status: 204 },
  'GET /api/wiki/pages': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
  'GET /api/announcements': { body: { items: [], total: 0, page: 1, pageSize: 5 } },
};

export interface FetchMock {
  calls: MockRequest[];
  /** Requests to 'METHOD /path'. */
  callsTo(key: string): MockRequest[];
  /** Adds or replaces routes. */
  set(routes: MockRoutes): void;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

export function mockFetch(routes: MockRoutes = {}): FetchMock {
  const table: MockRoutes = { ...DEFAULT_ROUTES, ...routes };
  const calls: MockRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const request: MockRequest = {
      method,
      path: url.pathname,
      search: url.search,
      headers: headersOf(init),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(request);
    const route = table[`${method} ${url.pathname}`];
    const result: MockResult =
      route === undefined
        ? {
            status: 404,
            body: { code: 'NOT_FOUND', message: `No mock for ${method} ${url.pathname}` },
          }
        : typeof route === 'function'
          ? await route(request)
          : route;
    if (result === NETWORK_FAILURE) throw new TypeError('Failed to fetch');
    const status = result.status ?? 200;
    const body = status === 204 || result.body === undefined ? null : JSON.stringify(result.body);
    return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    calls,
    callsTo: (key) => calls.filter((c) => `${c.method} ${c.path}` === key),
    set: (more) => Object.assign(table, more),
  };
}
