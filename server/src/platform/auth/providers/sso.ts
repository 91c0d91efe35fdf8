/**
 * Single sign-on with OpenID Connect (`openid-client`): authorization code with PKCE, state and
 * nonce. The discovery document is fetched once per provider configuration and reused.
 */
import type { SsoSettings } from '@learning-hub/core';
import * as oidc from 'openid-client';
import { ProviderFailure, type Identity, type Trace } from './types';

export interface SsoSecrets {
  clientSecret?: string;
}

const configurations = new Map<string, Promise<oidc.Configuration>>();

function cacheKey(providerId: string, settings: SsoSettings, secrets: SsoSecrets, version: string) {
  return `${providerId}|${version}|${settings.issuer}|${settings.clientId}|${secrets.clientSecret ? 'secret' : 'public'}`;
}

/** The provider's configuration (discovery), cached until the provider's settings change. */
export async function ssoConfiguration(
  providerId: string,
  settings: SsoSettings,
  secrets: SsoSecrets,
  version: string,
  trace: Trace,
): Promise<oidc.Configuration> {
  const key = cacheKey(providerId, settings, secrets, version);
  let pending = configurations.get(key);
  if (!pending) {
    pending = (async () => {
      const insecure = settings.allowInsecureHttp && settings.issuer.startsWith('http://');
      return oidc.discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        secrets.clientSecret ? oidc.ClientSecretPost(secrets.clientSecret) : oidc.None(),
        {
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
          timeout: 10,
        },
      );
    })();
    configurations.set(key, pending);
    // A failed discovery is not cached: the next attempt asks again.
    pending.catch(() => configurations.delete(key));
  }
  try {
    return await trace.step(
      'Discover the provider',
      () => pending,
      (c) => `issuer ${c.serverMetadata().issuer}`,
    );
  } catch (error) {
    throw new ProviderFailure(
      'unavailable',
      `The identity provider could not be discovered: ${(error as Error).message}`,
    );
  }
}

export interface AuthorizationStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function startAuthorization(
  configuration: oidc.Configuration,
  settings: SsoSettings,
  redirectUri: string,
): Promise<AuthorizationStart> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: [...new Set(['openid', ...settings.scopes])].join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.toString(), state, nonce, codeVerifier };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * Exchanges the callback's code (checking state, nonce and PKCE), reads the ID token's claims and
 * userinfo, and describes the user.
 */
export async function completeAuthorization(
  providerId: string,
  configuration: oidc.Configuration,
  settings: SsoSettings,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
  trace: Trace,
): Promise<Identity> {
  const tokens = await trace.step(
    'Exchange the code',
    async () => {
      try {
        return await oidc.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new ProviderFailure(
          'invalid_credentials',
          `The identity provider's answer was refused: ${(error as Error).message}`,
        );
      }
    },
    () => 'ID token verified (issuer, audience, nonce, signature)',
  );
  const idClaims = tokens.claims();
  if (!idClaims) throw new ProviderFailure('invalid_credentials', 'No ID token was received');
  const userinfo = await trace.step(
    'Read userinfo',
    async () => {
      try {
        return await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      } catch (error) {
        throw new ProviderFailure('unavailable', `userinfo failed: ${(error as Error).message}`);
      }
    },
    (u) => Object.keys(u).join(', '),
  );
  const claims: Record<string, unknown> = { ...idClaims, ...userinfo };
  trace.note('Claims received', JSON.stringify(claims));

  const username =
    str(claims[settings.usernameClaim]) ??
    str(claims.preferred_username) ??
    str(claims.email) ??
    idClaims.sub;
  const groupsClaim = settings.groupsClaim ? claims[settings.groupsClaim] : undefined;
  const groups = Array.isArray(groupsClaim)
    ? groupsClaim.filter((g): g is string => typeof g === 'string')
    : typeof groupsClaim === 'string'
      ? [groupsClaim]
      : [];
  const name = str(claims.name) ?? '';
  return {
    method: 'sso',
    providerId,
    externalId: idClaims.sub,
    username,
    email: str(claims.email),
    firstname: str(claims.given_name) ?? name.split(' ')[0] ?? '',
    lastname: str(claims.family_name) ?? name.split(' ').slice(1).join(' '),
    department: settings.departmentClaim ? str(claims[settings.departmentClaim]) : null,
    groups,
    claims,
  };
}

/** Discovery only: the admin's Test button. */
export async function testSsoConnection(
  providerId: string,
  settings: SsoSettings,
  secrets: SsoSecrets,
  version: string,
  trace: Trace,
): Promise<void> {
  const configuration = await ssoConfiguration(providerId, settings, secrets, version, trace);
  const meta = configuration.serverMetadata();
  trace.note(
    'Endpoints',
    `authorization ${meta.authorization_endpoint ?? '?'}, token ${meta.token_endpoint ?? '?'}, PKCE ${
      (meta.code_challenge_methods_supported ?? []).includes('S256')
        ? 'S256 supported'
        : 'not advertised'
    }`,
  );
}
