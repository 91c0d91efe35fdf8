// ESLint flat config. Beyond typescript-eslint's recommended rules, it keeps the dependency
// direction of docs/architecture.md: core imports neither side (nor Node, DOM frameworks,
// Fastify or Kysely), server and web never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** What the server may never import. */
const SERVER_NOT_WEB = {
  group: ['@learning-hub/web', '@learning-hub/web/*', '**/web/**', 'react', 'react-*'],
  message: 'The server never imports the web app.',
};

/** Tests and their fixtures, which build the whole app and so may cross the zones. */
const TEST_FILES = ['**/*.test.ts', '**/test-fixture.ts', '**/test-support.ts'];

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['core/**/*.ts'],
    languageOptions: { globals: {} },
    rules: restrict([
      {
        group: [
          'node:*',
          'fs',
          'path',
          'crypto',
          'react',
          'react-*',
          '@mantine/*',
          'fastify',
          '@fastify/*',
          'kysely',
          '@learning-hub/server',
          '@learning-hub/server/*',
          '@learning-hub/web',
          '@learning-hub/web/*',
          '**/server/**',
          '**/web/**',
        ],
        message:
          'core is isomorphic: it imports neither the server nor the web app, nor host APIs.',
      },
    ]),
  },
  {
    files: ['core/src/access/roles.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([SERVER_NOT_WEB]),
  },
  {
    // The zones of docs/architecture.md ("Areas and the platform"): the platform imports no area.
    // Tests and their fixtures compose the whole app, so they may.
    files: ['server/src/platform/**/*.ts'],
    ignores: TEST_FILES,
    rules: restrict([
      SERVER_NOT_WEB,
      {
        regex: '(^|/)modules(/|$)',
        message:
          'The platform imports no area (server/src/modules): an area registers itself through its manifest (docs/architecture.md, "Areas and the platform").',
      },
    ]),
  },
  {
    // A migration is frozen: it runs the same way whenever a database reaches it, so it imports
    // no live code of the project (a copy of what it needs goes into the migration).
    files: ['server/src/platform/db/migrations/*.ts'],
    ignores: [...TEST_FILES, 'server/src/platform/db/migrations/index.ts'],
    rules: restrict([
      SERVER_NOT_WEB,
      {
        regex: '^\\.\\.?/',
        message:
          'A migration imports no code of the project: copy what it needs into it (docs/architecture.md, "Data").',
      },
    ]),
  },
  {
    // An area imports another area only through that area's public API (`../<area>/public`).
    files: ['server/src/modules/*/**/*.ts'],
    ignores: TEST_FILES,
    rules: restrict([
      SERVER_NOT_WEB,
      {
        regex: '^\\.\\./(?!\\.\\.(/|$))[^/]+/(?!public$)',
        message:
          'An area imports another area only through its public API: import from "../<area>/public" (docs/architecture.md, "Areas and the platform").',
      },
      {
        regex: '(^|/)modules/[^/]+/(?!public$)',
        message:
          'An area imports another area only through its public API: import from "../<area>/public" (docs/architecture.md, "Areas and the platform").',
      },
    ]),
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([
        {
          group: [
            '@learning-hub/server',
            '@learning-hub/server/*',
            '**/server/src/**',
            'fastify',
            'kysely',
            'node:*',
          ],
          message: 'The web app never imports the server.',
        },
      ]),
    },
  },
  {
    // The web app's build tooling runs in Node.js, not in the browser.
    files: ['web/vite.config.ts', 'web/build/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['scripts/**', 'bench/**', 'e2e/**', 'server/src/cli/**', '**/*.config.*'],
    rules: { 'no-console': 'off' },
  },
);
