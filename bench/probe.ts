/**
 * The cheap-route probe in a process of its own (server-process.ts, `probeInOwnProcess`): one
 * autocannon run of `GET <url>` as one person, printed as JSON on stdout. Its own process, so
 * that what it measures is the server: run in the process that also makes the load (twenty
 * writers building and parsing JSON), its timings would include the waits of that process's
 * event loop.
 */
import { p95Of } from './server-process';

const [url, token, connections, rate, durationS] = process.argv.slice(2);
const latency = await p95Of(url ?? '', token ?? '', {
  connections: Number(connections),
  rate: Number(rate),
  durationS: Number(durationS),
});
process.stdout.write(`${JSON.stringify(latency)}\n`);
