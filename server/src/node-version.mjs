// The Node.js lines Learning Hub runs on, and the refusal on any other. Plain JavaScript with no
// imports, so that it loads on any Node.js (the system's older one included) and runs before
// anything that needs a newer runtime: the server's entry point (server/src/server.ts) and
// `npm start` (scripts/start.mjs) call exitUnlessSupportedNode() first. Keep in step with
// "engines" in the root package.json.

/** Oldest release of each supported line (what the dependencies' own engines fields ask for). */
const LINES = [
  { major: 22, minimum: [22, 22, 2] },
  { major: 24, minimum: [24, 15, 0] },
  { major: 26, minimum: [26, 0, 0] },
];

/** The supported lines, for messages: 22, 24 (the pinned LTS) and 26. */
export const SUPPORTED_NODE_LINES = LINES.map((line) => line.major);

function parse(version) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function atLeast(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/**
 * True for the releases of the supported lines (22.22.2+, 24.15.0+, 26+; later majors are taken
 * as the newest line, as "engines" does). `version` as in process.versions.node or process.version.
 */
export function isSupportedNode(version) {
  const parsed = parse(version);
  if (!parsed) return false;
  const newest = LINES[LINES.length - 1];
  if (parsed[0] > newest.major) return true;
  const line = LINES.find((l) => l.major === parsed[0]);
  return Boolean(line && atLeast(parsed, line.minimum));
}

/** The refusal: which lines are supported, which one this is, and how to get a supported one. */
export function unsupportedNodeMessage(version, execPath) {
  return [
    `Learning Hub does not run on Node.js ${version.startsWith('v') ? version : `v${version}`}` +
      (execPath ? ` (${execPath})` : '') +
      '.',
    'It runs on Node.js 24 LTS (24.15.0 or later), 22 (22.22.2 or later) or 26.',
    'To get one: run `npm ci` in the project folder; it installs the pinned Node.js 24 from the npm',
    'registry into node_modules/.bin, which `npm start` and every npm script use. To run a single',
    'file with it: `npx node <file>` (or put node_modules/.bin first on your PATH).',
  ].join('\n');
}

/** Exits with status 1 and the refusal on stderr when this process runs an unsupported Node.js. */
export function exitUnlessSupportedNode() {
  const version = process.versions.node;
  if (isSupportedNode(version)) return;
  process.stderr.write(`${unsupportedNodeMessage(version, process.execPath)}\n`);
  process.exit(1);
}
