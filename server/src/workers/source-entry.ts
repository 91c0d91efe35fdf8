/**
 * A child module from TypeScript source (tests, `npm run dev`): bundled with esbuild, as
 * server/build.mjs bundles dist/content-worker.js, into node_modules/.cache/content-workers/, so
 * the child runs on plain Node.js like the built server's. (Running the .ts file through tsx
 * instead would cost each child some 350 MB more: tsx transforms pdf.js's 2 MB of code in it.)
 * npm packages stay external and load from node_modules; workspace code is bundled in.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const builds = new Map<string, Promise<URL>>();

export function sourceEntry(source: URL): () => Promise<URL> {
  return () => {
    let built = builds.get(source.href);
    if (!built) {
      built = bundle(source);
      built.catch(() => builds.delete(source.href));
      builds.set(source.href, built);
    }
    return built;
  };
}

async function bundle(source: URL): Promise<URL> {
  const serverDir = new URL('../../', import.meta.url);
  const pkg = JSON.parse(await readFile(new URL('package.json', serverDir), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@learning-hub/'));
  const outDir = new URL('../node_modules/.cache/content-workers/', serverDir);
  await mkdir(outDir, { recursive: true });
  const name = fileURLToPath(source).split('/').pop()?.replace(/\.ts$/, '') ?? 'worker';
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(source)],
    outfile: `${name}.mjs`,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'inline',
    external,
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __lhCreateRequire } from 'node:module'; const require = __lhCreateRequire(import.meta.url);",
    },
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild made nothing of ${source.href}`);
  // Named by its content: every process (test workers, runs) shares one file per version.
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const outfile = fileURLToPath(new URL(`${name}-${hash}.mjs`, outDir));
  const partial = `${outfile}.${process.pid}.part`;
  await writeFile(partial, code);
  await rename(partial, outfile);
  return pathToFileURL(outfile);
}
