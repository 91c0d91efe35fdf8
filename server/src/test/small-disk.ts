/**
 * A real, small disk for the tests of a full disk: a tmpfs of a few MB mounted on a temporary
 * directory (needs root, as the CI runs; `requireTool` fails the run under CI=true when it cannot
 * mount, and skips loudly elsewhere). The test points the app's FILES_DIR and UPLOAD_STAGING_DIR
 * into it and fills it with a filler file, so writes fail with the system's own ENOSPC.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from './helpers';

export interface SmallDisk {
  dir: string;
  /** Fills the disk so that only about `room` bytes are left (0: nothing). */
  fill(room?: number): void;
  /** Removes the filler. */
  free(): void;
  unmount(): void;
}

function tryMount(dir: string, bytes: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** Mounts a tmpfs of `bytes`; null (skipped loudly, or thrown under CI) when mounting is refused. */
export function mountSmallDisk(bytes = 2 * 1024 * 1024): SmallDisk | null {
  const dir = mkdtempSync(join(tmpdir(), 'lh-small-disk-'));
  const mounted = tryMount(dir, bytes);
  if (!requireTool('mount -t tmpfs (root)', mounted, 'run the tests as root, as the CI does')) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill(room = 0) {
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(4096, 1);
      let size = 0;
      try {
        for (;;) {
          size += writeSync(fd, chunk);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      if (room > 0) truncateSync(filler, Math.max(0, size - room));
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
