/**
 * The notices about one's own account: a password changed, a sign-in from a browser not used
 * before (docs/notifications.md, "What the areas raise").
 */
import type { NotificationList } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestContext } from '../../test/helpers';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});

afterEach(async () => {
  await ctx.close();
});

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

async function signInWith(username: string, password: string, userAgent: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/local',
    payload: { username, password },
    headers: { 'user-agent': userAgent },
    remoteAddress: '10.1.2.3',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

async function notices(token: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: bearer(token),
  });
  return (response.json() as NotificationList).items;
}

describe('notices about one’s account', () => {
  it('tells of a sign-in from a new browser, not of the first sign-in or a known browser', async () => {
    const { user, password } = await createTestUser(ctx);
    const first = await signInWith(user.username, password, FIREFOX);
    await signInWith(user.username, password, FIREFOX);
    expect(await notices(first)).toEqual([]);
    await signInWith(user.username, password, SAFARI_IPHONE);
    const [notice] = await notices(first);
    expect(notice).toMatchObject({
      kind: 'account.new-sign-in',
      priority: 'important',
      link: '/profile-settings',
    });
    expect(notice?.body).toContain('Safari on iOS signed in from 10.1.2.3');
  });

  it('tells of a password change', async () => {
    const { user, password } = await createTestUser(ctx);
    const token = await signInWith(user.username, password, FIREFOX);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(token),
      payload: { currentPassword: password, newPassword: 'a brand new splice 42 tray' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = await notices(token);
    expect(notice).toMatchObject({
      kind: 'account.password-changed',
      title: 'Your password was changed',
    });
  });
});
