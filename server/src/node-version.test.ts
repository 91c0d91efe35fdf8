/**
 * The Node.js line check: the predicate, and the entry point itself refusing on an unsupported
 * Node.js before it loads anything. The refusal runs with the system's own node where that is an
 * older line (as on this project's machines); where there is none it is skipped, its title saying
 * so (set LH_UNSUPPORTED_NODE to such a binary).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_NODE_LINES, isSupportedNode, unsupportedNodeMessage } from './node-version.mjs';

describe('isSupportedNode', () => {
  it.each([
    ['22.22.2', true],
    ['v22.23.3', true],
    ['24.15.0', true],
    ['24.21.0', true],
    ['26.0.0', true],
    ['26.10.0', true],
    ['28.1.0', true],
    ['22.22.1', false],
    ['22.12.0', false],
    ['24.14.1', false],
    ['20.20.2', false],
    ['v20.19.0', false],
    ['18.20.8', false],
    ['23.11.0', false],
    ['25.2.1', false],
    ['', false],
    ['not a version', false],
  ])('%s → %s', (version, expected) => {
    expect(isSupportedNode(version)).toBe(expected);
  });

  it('this test process runs a supported line', () => {
    expect(isSupportedNode(process.versions.node)).toBe(true);
  });

  it('the message names the supported lines and how to get one', () => {
    const message = unsupportedNodeMessage('20.20.2', '/usr/bin/node');
    expect(SUPPORTED_NODE_LINES).toEqual([22, 24, 26]);
    expect(message).toContain('v20.20.2 (/usr/bin/node)');
    for (const line of ['24 LTS', '22', '26']) expect(message).toContain(line);
    expect(message).toContain('npm ci');
    expect(message).toContain('npm start');
  });
});

/** A node binary on this machine whose line is not supported (an older system Node.js). */
function findUnsupportedNode(): { path: string; version: string } | null {
  const candidates = [process.env.LH_UNSUPPORTED_NODE, '/usr/bin/node', '/usr/local/bin/node'];
  for (const path of candidates) {
    if (!path || !existsSync(path)) continue;
    const result = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const version = result.stdout?.trim() ?? '';
    if (result.status === 0 && version && !isSupportedNode(version)) return { path, version };
  }
  return null;
}

/** Each entry point of server/dist, and the file it loads once the line is supported. */
const ENTRIES = [
  { name: 'server', source: './server.ts', loads: 'main.js' },
  { name: 'admin', source: './cli/admin-entry.ts', loads: 'admin-cli.js' },
  { name: 'migrate', source: './cli/migrate-entry.ts', loads: 'migrate-cli.js' },
] as const;

describe.each(ENTRIES)('the entry point $name.js', ({ name, source, loads }) => {
  const unsupported = findUnsupportedNode();
  let dir = '';
  let entry = '';

  beforeAll(async () => {
    // The entry point bundled as server/build.mjs does, alone: the file it loads is not there, so
    // getting past the check shows as "cannot find" that file.
    dir = mkdtempSync(join(tmpdir(), 'lh-entry-'));
    await build({
      entryPoints: { [name]: fileURLToPath(new URL(source, import.meta.url)) },
      outdir: dir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'silent',
    });
    entry = join(dir, `${name}.js`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(!unsupported)(
    `refuses at once on an unsupported Node.js (${unsupported?.path ?? 'none found'} ${unsupported?.version ?? ''})`,
    () => {
      const result = spawnSync(unsupported!.path, [entry], { encoding: 'utf8', timeout: 10_000 });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `Learning Hub does not run on Node.js v${unsupported!.version}`,
      );
      expect(result.stderr).toContain('22 (22.22.2 or later) or 26');
      expect(result.stderr).toContain('npm ci');
      expect(result.stderr).not.toContain(loads);
    },
  );

  it(`goes on to load ${loads} on this (supported) Node.js`, () => {
    const result = spawnSync(process.execPath, [entry], { encoding: 'utf8', timeout: 10_000 });
    expect(result.stderr).not.toContain('does not run on Node.js');
    expect(result.stderr).toContain(loads);
  });
});
