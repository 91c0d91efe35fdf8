import { AppError, MeResponseSchema } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { mockFetch, NETWORK_FAILURE } from '../test/fetch-mock';
import { buildMe, buildSession, buildUser, storeSession } from '../test/fixtures';
import { ApiError, api, hasServerMessage } from './api-client';
import { readSession } from './auth/session-storage';

describe('api client', () => {
  it('sends JSON with the bearer token of the stored session and parses with the contract', async () => {
    const user = buildUser();
    const session = storeSession(buildSession(user));
    const fetchMock = mockFetch({ 'GET /api/auth/me': { body: buildMe(user) } });
    const me = await api.get('/api/auth/me', MeResponseSchema);
    expect(me.user.id).toBe(user.id);
    const [call] = fetchMock.callsTo('GET /api/auth/me');
    expect(call?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(call?.headers.accept).toBe('application/json');
  });

  it('turns a known error code into a core AppError', async () => {
    mockFetch({
      'PUT /api/x': {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Bad email', details: [1] },
      },
    });
    const error = await api.put('/api/x', {}, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Bad email',
      status: 400,
      details: [1],
    });
    expect(hasServerMessage(error)).toBe(true);
  });

  it('keeps an unknown code, with the HTTP status', async () => {
    mockFetch({
      'GET /api/x': { status: 418, body: { code: 'TEAPOT', message: 'Short and stout' } },
    });
    const error = await api.get('/api/x', MeResponseSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'TEAPOT', message: 'Short and stout', status: 418 });
  });

  it('names a body-less failure by its status', async () => {
    mockFetch({ 'GET /api/x': { status: 502 } });
    const error = await api.get('/api/x', MeResponseSchema).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'HTTP_502',
      message: 'Request failed (HTTP 502)',
      status: 502,
    });
    expect(hasServerMessage(error)).toBe(false);
  });

  it("reports a network failure as 'Network error occurred'", async () => {
    mockFetch({ 'GET /api/x': NETWORK_FAILURE });
    const error = await api.get('/api/x', MeResponseSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', message: 'Network error occurred' });
  });

  it('clears the stored session on a 401 to an authenticated call', async () => {
    storeSession(buildSession(buildUser()));
    mockFetch({
      'GET /api/auth/me': {
        status: 401,
        body: { code: 'SESSION_EXPIRED', message: 'Session expired' },
      },
    });
    await expect(api.get('/api/auth/me', MeResponseSchema)).rejects.toMatchObject({
      code: 'SESSION_EXPIRED',
      status: 401,
    });
    expect(readSession()).toBeNull();
  });

  it('leaves the session alone for a 401 to an unauthenticated call', async () => {
    storeSession(buildSession(buildUser()));
    mockFetch({
      'POST /api/x': { status: 401, body: { code: 'INVALID_CREDENTIALS', message: 'No' } },
    });
    await expect(api.post('/api/x', {}, null, { auth: false })).rejects.toBeInstanceOf(AppError);
    expect(readSession()).not.toBeNull();
  });

  it('rejects a 2xx answer that breaks the contract', async () => {
    mockFetch({ 'GET /api/auth/me': { body: { user: 'nobody' } } });
    await expect(api.get('/api/auth/me', MeResponseSchema)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    });
  });
});
