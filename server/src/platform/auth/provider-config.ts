/**
 * Sign-in methods and providers set up at start, from a JSON file (AUTH_CONFIG_FILE) or the same
 * JSON in the environment (AUTH_PROVIDERS):
 *
 *   { "methods": { "local": true, "ldap": true },
 *     "providers": [ { "method": "ldap", "id": "corp", "label": "Company directory",
 *                      "settings": { "urls": ["ldap://dc1:389"], … },
 *                      "secrets": { "bindPassword": "…" } } ] }
 *
 * A provider is created when the database has none with its id, and a method's on/off state is
 * set when it has never been set: after that, admins own them in /admin (a restart never undoes
 * their edits). Every problem in the file is reported at start, with its path.
 */
import { readFileSync } from 'node:fs';
import { ProviderInputSchema } from '@learning-hub/core';
import { z } from 'zod';
import { ConfigError, type AppConfig } from '../../config';
import type { Db } from '../db';
import { findProvider, insertProvider, seedMethod, SIGN_IN_METHODS } from './provider-repository';

const AuthConfigFileSchema = z.strictObject({
  methods: z
    .strictObject({
      local: z.boolean().optional(),
      ldap: z.boolean().optional(),
      moodle: z.boolean().optional(),
      sso: z.boolean().optional(),
    })
    .optional(),
  providers: z.array(ProviderInputSchema).max(50).optional(),
});
export type AuthConfigFile = z.infer<typeof AuthConfigFileSchema>;

/** Reads and validates the start-up sign-in configuration; null when none is given. */
export function readAuthConfig(config: AppConfig['authConfig']): AuthConfigFile | null {
  let text: string | undefined;
  let source = '';
  if (config.file) {
    source = `AUTH_CONFIG_FILE (${config.file})`;
    try {
      text = readFileSync(config.file, 'utf8');
    } catch (error) {
      throw new ConfigError([`${source}: cannot be read: ${(error as Error).message}`]);
    }
  } else if (config.inline) {
    source = 'AUTH_PROVIDERS';
    text = config.inline;
  }
  if (text === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${source}: not valid JSON: ${(error as Error).message}`]);
  }
  const parsed = AuthConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${source} ${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  const ids = parsed.data.providers?.map((p) => p.id) ?? [];
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new ConfigError([`${source}: two providers have the id "${duplicate}"`]);
  return parsed.data;
}

/** Creates the configured providers and method states the database does not have yet. */
export async function applyAuthConfig(db: Db, file: AuthConfigFile, at: string): Promise<string[]> {
  const created: string[] = [];
  for (const provider of file.providers ?? []) {
    if (await findProvider(db, provider.id)) continue;
    await insertProvider(db, { ...provider, secrets: { ...provider.secrets } }, at);
    created.push(provider.id);
  }
  for (const method of SIGN_IN_METHODS) {
    const state = file.methods?.[method];
    if (state !== undefined) await seedMethod(db, method, state, at);
  }
  return created;
}
