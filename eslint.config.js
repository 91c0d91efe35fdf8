// ESLint flat config. Beyond typescript-eslint's recommended rules, it keeps the dependency
// direction of docs/architecture.md: core imports neither side (nor Node, DOM frameworks,
// Fastify or Kysely), server and web never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    rules: restrict([
      {
        group: ['@learning-hub/web', '@learning-hub/web/*', '**/web/**', 'react', 'react-*'],
        message: 'The server never imports the web app.',
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
