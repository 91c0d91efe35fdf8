/**
 * What every benchmark that measures the real server needs: the built server (bundled once, or
 * reused with BENCH_SKIP_BUILD=1), and a wait until a child process answers over HTTP.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Bundles the server (`npm run build:server`) unless BENCH_SKIP_BUILD=1 and it is built. */
export function ensureServerBuilt(): void {
  const entry = join(REPO_ROOT, 'server/dist/server.js');
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(entry)) return;
  const result = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0 || !existsSync(entry)) throw new Error('could not build the server');
}

/** Resolves once `url` answers 2xx; fails if `child` exits first or after `attempts` × 50 ms. */
export async function waitForHttp(url: string, child: ChildProcess, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}
