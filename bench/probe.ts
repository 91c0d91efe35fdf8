/**
 * The cheap-route probe in a process of its own (server-process.ts, `probeInOwnProcess`): one
 * autocannon run of `GET <url>` as one person, printed as JSON on stdout. Its own process, so
 * that what it measures is the server: run in the process that also makes the load (twenty
 * writers building and parsing JSON), its timings would include the waits of that process's
 * event loop.
 */
import { setPriority } from 'node:os';
import { p95Of } from './server-process';

// Started from a load client that runs below the server (server-process.ts, clientsBelowServer):
// the probe runs at the server's priority where it may (raising a priority needs root).
try {
  setPriority(0, 0);
} catch {
  // Not allowed: it keeps the load client's priority.
}

const [url, token, connections, rate, durationS] = process.argv.slice(2);
const latency = await p95Of(url ?? '', token ?? '', {
  connections: Number(connections),
  rate: Number(rate),
  durationS: Number(durationS),
});
process.stdout.write(`${JSON.stringify(latency)}\n`);
