// Bundles the server entry points into server/dist with esbuild. Workspace code (@learning-hub/core)
// is bundled in; npm dependencies stay external and are loaded from node_modules at run time.
// `--outdir=<dir>` bundles elsewhere (a test's own copy); the directory must lie under server/, so
// that the dependencies resolve from there as they do from dist.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@learning-hub/'));
const outdirArg = process.argv
  .find((arg) => arg.startsWith('--outdir='))
  ?.slice('--outdir='.length);
const outdir = outdirArg
  ? pathToFileURL(`${outdirArg.replace(/\/+$/, '')}/`)
  : new URL('dist/', here);

mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: new URL('.', here).pathname,
  entryPoints: {
    // server.js, admin.js and migrate.js check the Node.js line, then load the code itself
    // (main.js, admin-cli.js, migrate-cli.js; see src/server.ts).
    server: 'src/server.ts',
    main: 'src/main.ts',
    admin: 'src/cli/admin-entry.ts',
    'admin-cli': 'src/cli/admin.ts',
    migrate: 'src/cli/migrate-entry.ts',
    'migrate-cli': 'src/cli/migrate.ts',
    // The SQLite read pool's threads (src/platform/db/read-pool.ts) load this file beside main.js.
    'read-worker': 'src/platform/db/read-worker.ts',
    // A content worker process (src/workers/): started by main.js, beside it.
    'content-worker': 'src/workers/content-worker.ts',
    // A compute worker process (src/workers/compute-tasks.ts: wiki diffs).
    'compute-worker': 'src/workers/compute-worker.ts',
  },
  outdir: fileURLToPath(outdir),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __lhCreateRequire } from 'node:module'; const require = __lhCreateRequire(import.meta.url);",
  },
});
copyFileSync(
  new URL('src/platform/auth/common-passwords.txt', here),
  new URL('common-passwords.txt', outdir),
);
