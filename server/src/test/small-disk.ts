/**
 * A real, small disk for the tests of a full disk: a tmpfs of a few MB mounted on a temporary
 * directory. Mounting needs root, as the CI runs: `smallDiskAvailable` fails the run under
 * CI=true when the tests do not run as root, and skips loudly elsewhere. The test points the
 * app's FILES_DIR and UPLOAD_STAGING_DIR into it and fills it with a filler file, so writes fail
 * with the system's own ENOSPC. Mount in `beforeAll` and unmount in `afterAll` of the same
 * `describe`: both run only when one of its tests does.
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

/** Whether a tmpfs can be mounted here (root); throws under CI=true when not. */
export function smallDiskAvailable(): boolean {
  const root = process.getuid?.() === 0;
  return requireTool('mount -t tmpfs (root)', root, 'run the tests as root, as the CI does');
}

/** Mounts a tmpfs of `bytes` on a new temporary directory. */
export function mountSmallDisk(bytes = 2 * 1024 * 1024): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'lh-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], {
      stdio: 'pipe',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not mount a tmpfs on ${dir}: ${String(error)}`);
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
