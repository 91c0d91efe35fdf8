import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config';
import {
  createTestDatabase,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestDatabase,
} from '../../test/helpers';
import { applyAuthConfig, readAuthConfig } from './provider-config';
import { findProvider, listProviders, setMethodEnabled } from './provider-repository';
import { methodStates } from './providers/registry';

const available = await testDatabaseAvailable();

const moodle = {
  method: 'moodle',
  id: 'lms',
  label: 'Training Moodle',
  settings: { siteUrl: 'https://moodle.fiberco.example' },
};

function errorsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('start-up sign-in configuration: reading', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hub-auth-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file, or the same JSON inline; nothing when neither is set', () => {
    const file = join(dir, 'auth.json');
    writeFileSync(file, JSON.stringify({ providers: [moodle] }));
    expect(readAuthConfig({ file, inline: undefined })?.providers?.[0]).toMatchObject({
      id: 'lms',
      settings: { service: 'moodle_mobile_app' },
    });
    expect(
      readAuthConfig({ file: undefined, inline: JSON.stringify({ methods: { local: false } }) }),
    ).toEqual({ methods: { local: false } });
    expect(readAuthConfig({ file: undefined, inline: undefined })).toBeNull();
  });

  it('names the source and the path of every problem', () => {
    expect(
      errorsOf(() => readAuthConfig({ file: join(dir, 'missing.json'), inline: undefined })),
    ).toEqual([expect.stringMatching(/^AUTH_CONFIG_FILE \(.*missing\.json\): cannot be read: /)]);
    expect(errorsOf(() => readAuthConfig({ file: undefined, inline: '{"providers": [' }))).toEqual([
      expect.stringMatching(/^AUTH_PROVIDERS: not valid JSON: /),
    ]);
    const problems = errorsOf(() =>
      readAuthConfig({
        file: undefined,
        inline: JSON.stringify({
          methods: { local: 'yes' },
          providers: [{ ...moodle, settings: { siteUrl: 'ftp://moodle' } }],
          extra: 1,
        }),
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^AUTH_PROVIDERS methods\.local: /),
        expect.stringMatching(/^AUTH_PROVIDERS providers\.0\.settings\.siteUrl: /),
        expect.stringMatching(/^AUTH_PROVIDERS \(root\): .*extra/),
      ]),
    );
    expect(
      errorsOf(() =>
        readAuthConfig({
          file: undefined,
          inline: JSON.stringify({ providers: [moodle, moodle] }),
        }),
      ),
    ).toEqual(['AUTH_PROVIDERS: two providers have the id "lms"']);
  });

  it('accepts the example of the README', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const example = /```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const config = readAuthConfig({ file: undefined, inline: example });
    expect(config?.providers?.map((p) => `${p.method}:${p.id}`)).toEqual([
      'ldap:corp',
      'moodle:lms',
      'sso:idp',
    ]);
  });
});

describe.skipIf(!available)(`start-up sign-in configuration: applying (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('creates what the database lacks and never undoes an admin edit', async () => {
    const { db } = database;
    const file = readAuthConfig({
      file: undefined,
      inline: JSON.stringify({ methods: { moodle: true, local: true }, providers: [moodle] }),
    });
    expect(file).not.toBeNull();
    expect(await applyAuthConfig(db, file!, '2026-11-22T09:00:00.000Z')).toEqual(['lms']);
    expect((await findProvider(db, 'lms'))?.label).toBe('Training Moodle');
    expect((await methodStates(db)).moodle).toBe(true);

    // An admin switches Moodle off; the next start keeps it off and creates nothing again.
    await setMethodEnabled(db, 'moodle', false, '2026-11-22T10:00:00.000Z');
    const again = readAuthConfig({
      file: undefined,
      inline: JSON.stringify({
        methods: { moodle: true },
        providers: [{ ...moodle, label: 'Renamed in the file' }],
      }),
    });
    expect(await applyAuthConfig(db, again!, '2026-11-22T11:00:00.000Z')).toEqual([]);
    expect((await methodStates(db)).moodle).toBe(false);
    expect((await listProviders(db)).map((p) => p.label)).toEqual(['Training Moodle']);
  });
});
