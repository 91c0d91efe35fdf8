#!/usr/bin/env node
// The servers the browser tests run against (`npm run build` must have run: scripts/test.mjs does).
//
//   node scripts/e2e-server.mjs          a fresh SQLite database with the demo data, and real
//                                        sign-in providers: a throwaway OpenLDAP directory, an
//                                        OpenID Connect provider and the Moodle stand-in
//                                        (scripts/fixtures), configured through AUTH_CONFIG_FILE
//   node scripts/e2e-server.mjs --dev    dev mode (sign-in disabled), no providers
//
// PORT, SQLITE_PATH and the rest come from the environment (e2e/playwright.config.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const devMode = process.argv.includes('--dev');
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const dbPath = process.env.SQLITE_PATH;
const port = process.env.PORT ?? '3100';
if (!dbPath) throw new Error('SQLITE_PATH is required');
const dataDir = dirname(dbPath);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
if (
  !existsSync(join(root, 'server/dist/server.js')) ||
  !existsSync(join(root, 'web/dist/index.html'))
) {
  console.error('Build first: npm run build');
  process.exit(1);
}

const children = [];
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(0);
  });
}
process.on('exit', stopAll);

/** Starts the test services and answers their addresses (one JSON line on their stdout). */
async function startFixtures(publicUrl) {
  const fixtures = spawn(
    join(root, 'node_modules/.bin/tsx'),
    [
      'scripts/fixtures/start-all.ts',
      '--exit-on-stdin-close',
      `--oidc-redirect-uri=${publicUrl}/api/auth/sso/callback`,
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(fixtures);
  const line = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: fixtures.stdout });
    lines.once('line', resolve);
    fixtures.once('exit', (code) => reject(new Error(`test services exited with ${code}`)));
  });
  return JSON.parse(line);
}

/** The providers the browser tests sign in with, pointing at the running test services. */
function authConfig(services) {
  const { ldap, oidc, moodle } = services;
  const providers = [
    {
      method: 'moodle',
      id: 'lms',
      label: 'Training Moodle',
      settings: { siteUrl: moodle.url, siteAdminRole: 'admin' },
    },
    {
      method: 'sso',
      id: 'idp',
      label: 'Company SSO',
      settings: {
        issuer: oidc.issuer,
        clientId: oidc.clientId,
        scopes: ['openid', 'profile', 'email', 'groups'],
        departmentClaim: 'department',
        allowInsecureHttp: true,
        roleMapping: [
          { group: 'hub-admins', role: 'admin' },
          { group: 'hub-instructors', role: 'instructor' },
        ],
      },
    },
  ];
  if (ldap) {
    providers.unshift({
      method: 'ldap',
      id: 'corp',
      label: 'Company directory',
      settings: {
        urls: [ldap.url],
        bindDn: ldap.serviceDn,
        userSearchBases: [ldap.peopleBase, ldap.contractorsBase],
        attributes: {
          email: 'mail',
          firstname: 'givenName',
          lastname: 'sn',
          department: 'departmentNumber',
        },
        roleMapping: [
          { group: 'hub-admins', role: 'admin' },
          { group: 'hub-instructors', role: 'instructor' },
        ],
        contextMapping: [
          {
            group: 'otdr-assistants',
            context: { type: 'course', courseId: 'otdr-trace-analysis' },
            roles: ['course-assistant'],
          },
        ],
      },
      secrets: { bindPassword: ldap.servicePassword },
    });
  }
  return { methods: { local: true, ldap: Boolean(ldap), moodle: true, sso: true }, providers };
}

const env = { ...process.env };
if (!devMode) {
  const publicUrl = `http://127.0.0.1:${port}`;
  const services = await startFixtures(publicUrl);
  if (!services.ldap && inCi) {
    console.error(
      'The browser tests need slapd under CI=true (apt-get install -y slapd ldap-utils).',
    );
    process.exit(1);
  }
  const file = join(dataDir, 'auth-providers.json');
  writeFileSync(file, JSON.stringify(authConfig(services), null, 2));
  writeFileSync(join(dataDir, 'services.json'), JSON.stringify(services, null, 2));
  Object.assign(env, { AUTH_CONFIG_FILE: file, PUBLIC_URL: publicUrl });
}

const server = spawn(process.execPath, ['server/dist/server.js'], {
  cwd: root,
  stdio: 'inherit',
  env,
});
children.push(server);
server.on('exit', (code) => {
  stopAll();
  process.exit(code ?? 0);
});
