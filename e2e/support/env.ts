/** Where the e2e server runs and keeps its database; shared by the config, fixtures and specs. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DB_PATH = join(tmpdir(), `learning-hub-e2e-${E2E_PORT}`, 'e2e.db');
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The dev-mode server (sign-in disabled: everyone is the developer admin). */
export const DEV_PORT = E2E_PORT + 1;
export const DEV_BASE_URL = `http://127.0.0.1:${DEV_PORT}`;
export const DEV_DB_PATH = join(tmpdir(), `learning-hub-e2e-${DEV_PORT}`, 'dev.db');

/** Where the e2e server wrote the addresses of the test services it started. */
export const SERVICES_FILE = join(tmpdir(), `learning-hub-e2e-${E2E_PORT}`, 'services.json');

/**
 * Accounts of the test services (scripts/fixtures: DEFAULT_DIRECTORY, DEFAULT_ACCOUNTS,
 * DEFAULT_MOODLE_USERS).
 */
export const SERVICE_ACCOUNTS = {
  ldap: { username: 'bob', password: 'bob-secret', firstname: 'Bob' },
  moodle: { username: 'noah', password: 'Noah-moodle-1!' },
  sso: { login: 'carol' },
} as const;
