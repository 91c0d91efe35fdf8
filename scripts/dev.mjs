#!/usr/bin/env node
// `npm run dev`: the API server with reload (tsx watch) and the Vite dev server with hot reload,
// which proxies /api to the server. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = process.env.PORT ?? '3000';
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: port },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], {
    cwd: `${root}/web`,
    stdio: 'inherit',
    env: { ...process.env, VITE_API_TARGET: `http://127.0.0.1:${port}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
