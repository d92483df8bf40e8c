// Lint for the extension, its tests and tools; `npm test` runs it (zero warnings allowed).
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.tools/**', 'node_modules/**', 'test/fixtures/**', 'media/**', '.bench/**', '.demo/**', '.service-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs'] } },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's test()/describe() return promises the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
      }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // A ring of imports inside the extension. Over src only: through the tests too it cost
    // three quarters of the lint's time, and no file of src imports a test.
    files: ['src/**/*.ts'],
    rules: { 'import/no-cycle': 'error' },
  },
  {
    // The pure core never imports the editor API: it is tested with plain Node.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core is pure: no vscode import (put editor code in src/editor).' }] }],
      // Rooms of one idea: a file that grows past this holds two (CONTRIBUTING.md, Layout).
      'max-lines': ['error', { max: 600 }],
    },
  },
  {
    files: ['src/editor/**/*.ts', 'src/*.ts'],
    rules: { 'max-lines': ['error', { max: 450 }] },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', AbortSignal: 'readonly', Buffer: 'readonly', document: 'readonly', window: 'readonly', performance: 'readonly' } },
  },
);
