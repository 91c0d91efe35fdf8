/**
 * Moodle sign-in through Moodle's own web-service protocol: the credentials go to
 * `login/token.php` (username, password, service → `token`, or `error` + `errorcode` such as
 * `invalidlogin`), then `webservice/rest/server.php` runs `core_webservice_get_site_info` with
 * that token (userid, username, firstname, lastname, userissiteadmin). Moodle answers errors with
 * HTTP 200 and an error body, so both bodies are read whatever the status.
 */
import type { MoodleSettings } from '@learning-hub/core';
import { ProviderFailure, type Identity, type Trace } from './types';

interface TokenResponse {
  token?: string;
  error?: string;
  errorcode?: string;
}

interface SiteInfo {
  userid?: number;
  username?: string;
  firstname?: string;
  lastname?: string;
  fullname?: string;
  userissiteadmin?: boolean;
  sitename?: string;
  exception?: string;
  errorcode?: string;
  message?: string;
}

function siteUrl(settings: MoodleSettings, path: string): URL {
  return new URL(path, settings.siteUrl.endsWith('/') ? settings.siteUrl : `${settings.siteUrl}/`);
}

async function call<T>(url: URL, init: RequestInit, settings: MoodleSettings): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new ProviderFailure('timeout', `Moodle did not answer within ${settings.timeoutMs} ms`);
    }
    throw new ProviderFailure(
      'unavailable',
      `Moodle could not be reached: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    throw new ProviderFailure('unavailable', `Moodle answered HTTP ${response.status}`);
  }
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderFailure('unavailable', 'Moodle answered something that is not JSON');
  }
}

/** Moodle error codes of login/token.php and what they mean to the person signing in. */
function tokenFailure(body: TokenResponse): ProviderFailure {
  switch (body.errorcode) {
    case 'invalidlogin':
      return new ProviderFailure('invalid_credentials', 'Invalid username or password');
    case 'suspended':
    case 'usernotconfirmed':
    case 'restoredaccountresetpassword':
    case 'passwordisexpired':
      return new ProviderFailure('forbidden', body.error ?? 'Moodle refused this account');
    case 'servicenotavailable':
      return new ProviderFailure(
        'misconfigured',
        `The Moodle web service is not available (${body.errorcode})`,
      );
    case 'enablewsdescription':
      return new ProviderFailure(
        'misconfigured',
        `Web services are disabled on the Moodle site (${body.errorcode})`,
      );
    default:
      return new ProviderFailure(
        'unavailable',
        `Moodle refused the sign-in: ${body.error ?? 'no token'} (${body.errorcode ?? 'no error code'})`,
      );
  }
}

export async function authenticateMoodle(
  providerId: string,
  settings: MoodleSettings,
  username: string,
  password: string,
  trace: Trace,
): Promise<Identity> {
  if (password.length === 0)
    throw new ProviderFailure('invalid_credentials', 'Invalid username or password');
  const token = await trace.step(
    'Request a token (login/token.php)',
    async () => {
      const body = await call<TokenResponse>(
        siteUrl(settings, 'login/token.php'),
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ username, password, service: settings.service }),
        },
        settings,
      );
      if (!body.token) throw tokenFailure(body);
      return body.token;
    },
    () => `service ${settings.service}: token received`,
  );

  const info = await trace.step(
    'Read the user (core_webservice_get_site_info)',
    async () => {
      const url = siteUrl(settings, 'webservice/rest/server.php');
      const body = await call<SiteInfo>(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({
            wstoken: token,
            wsfunction: 'core_webservice_get_site_info',
            moodlewsrestformat: 'json',
          }),
        },
        settings,
      );
      if (body.exception || typeof body.userid !== 'number' || !body.username) {
        throw new ProviderFailure(
          'unavailable',
          `Moodle did not describe the user: ${body.message ?? body.errorcode ?? 'no userid'}`,
        );
      }
      return body;
    },
    (b) => `userid ${b.userid}, ${b.username}${b.userissiteadmin ? ', site admin' : ''}`,
  );

  return {
    method: 'moodle',
    providerId,
    externalId: String(info.userid),
    username: info.username as string,
    email: null,
    firstname: info.firstname ?? '',
    lastname: info.lastname ?? '',
    department: null,
    groups: [],
    moodleId: info.userid as number,
    siteAdmin: info.userissiteadmin === true,
  };
}

/** Reaches the site and its token endpoint without credentials: the admin's Test button. */
export async function testMoodleConnection(settings: MoodleSettings, trace: Trace): Promise<void> {
  await trace.step(
    'Reach login/token.php',
    async () => {
      const body = await call<TokenResponse>(
        siteUrl(settings, 'login/token.php'),
        {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ username: '', password: '', service: settings.service }),
        },
        settings,
      );
      if (body.errorcode === 'servicenotavailable' || body.errorcode === 'enablewsdescription') {
        throw tokenFailure(body);
      }
      return body;
    },
    (b) => `answered (${b.errorcode ?? 'token'}): the web service ${settings.service} is reachable`,
  );
}

/** Where a browser goes to sign out of Moodle too. */
export function moodleLogoutUrl(settings: MoodleSettings): string {
  return siteUrl(settings, 'login/logout.php').toString();
}
