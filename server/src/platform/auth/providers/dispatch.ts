/**
 * What sign-in routes and the admin's dry runs share about providers: the password step of a
 * directory or Moodle provider, what a provider's mapping rules give an identity, the single
 * sign-on callback address, and the spec's messages for dev mode and unknown methods.
 */
import { AppError, RoleRegistry } from '@learning-hub/core';
import { listCustomRoles } from '../../access/access-repository';
import type { Db } from '../../db';
import { mapAccess, type MappedAccess } from '../identity-mapping';
import { authenticateLdap } from './ldap';
import { authenticateMoodle } from './moodle';
import type { ResolvedProvider } from './registry';
import type { Identity, Trace } from './types';

/** Spec §5: any sign-in attempt while authentication is disabled (dev mode). */
export const DEV_MODE_MESSAGE = 'Authentication is disabled in development mode';
/** Spec §5: a sign-in with a method that does not exist. */
export const INVALID_METHOD_MESSAGE = 'Invalid authentication method configured';

/** The role registry with the custom roles, for mappings that name one. */
async function registry(db: Db): Promise<RoleRegistry> {
  return new RoleRegistry(await listCustomRoles(db));
}

/** What a provider's rules give the identity (Moodle: its site-admin rule). */
export async function accessFor(
  db: Db,
  provider: ResolvedProvider,
  identity: Identity,
): Promise<MappedAccess> {
  const roles = await registry(db);
  if (provider.method === 'moodle') {
    const admin =
      identity.siteAdmin &&
      provider.config.siteAdminRole &&
      roles.get(provider.config.siteAdminRole);
    const fallback = roles.get(provider.config.defaultRole)
      ? provider.config.defaultRole
      : 'student';
    return {
      role: admin ? provider.config.siteAdminRole : fallback,
      assignments: [],
      matched: true,
    };
  }
  return mapAccess(identity, provider.config, roles);
}

/** Proves a username and password with a directory or Moodle provider. */
export function authenticateWith(
  provider: ResolvedProvider,
  username: string,
  password: string,
  trace: Trace,
): Promise<Identity> {
  if (provider.method === 'ldap') {
    return authenticateLdap(
      provider.id,
      provider.config,
      provider.secrets,
      username,
      password,
      trace,
    );
  }
  if (provider.method === 'moodle') {
    return authenticateMoodle(provider.id, provider.config, username, password, trace);
  }
  throw new AppError('BAD_REQUEST', 'Single sign-on has no password step');
}

export const ssoRedirectUri = (publicUrl: string) => `${publicUrl}/api/auth/sso/callback`;
