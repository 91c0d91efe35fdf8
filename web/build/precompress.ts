/**
 * A Vite plugin that writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the
 * build, once, at the highest levels (docs/front-end.md). The server sends the copy the browser
 * accepts (`preCompressed` of @fastify/static in server/src/app.ts), so no request pays for
 * compressing and every one gets the smallest file. Source maps are left as they are (only
 * developer tools load them), and so is a file that compression would not make smaller.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files of these types are compressed. */
export const PRECOMPRESSED = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Smaller files are sent as they are (the same threshold as the API's, plugins/compression.ts). */
export const PRECOMPRESS_MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => PRECOMPRESSED.test(path));
}

/** Writes `<file>.br` and `<file>.gz` for each text file in `dir`; returns the bytes before and after. */
export async function precompressDir(
  dir: string,
): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  await Promise.all(
    (await filesUnder(dir)).map(async (path) => {
      if ((await stat(path)).size < PRECOMPRESS_MIN_BYTES) return;
      const content = await readFile(path);
      const [br, gzipped] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gz(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      totals.files += 1;
      totals.bytes += content.length;
      if (br.length < content.length) {
        await writeFile(`${path}.br`, br);
        totals.brotliBytes += br.length;
      }
      if (gzipped.length < content.length) {
        await writeFile(`${path}.gz`, gzipped);
        totals.gzipBytes += gzipped.length;
      }
    }),
  );
  return totals;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'learning-hub:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // After the bundle is written (the files copied from public/ are there since it started).
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = resolve(config.root, config.build.outDir);
        const t = await precompressDir(outDir);
        const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
        config.logger.info(
          `precompressed ${t.files} files: ${kB(t.bytes)} → brotli ${kB(t.brotliBytes)}, gzip ${kB(t.gzipBytes)}`,
        );
      },
    },
  };
}
