// Lint enforces the runtime layers of DESIGN.md: only the Electron shell (files directly in
// src/main) and the preload may import electron; the core, server and shared code run under
// plain Node; shared code uses no Node or DOM API; the renderer reaches only shared code; inside
// the core, a module imports only its layer and those below (eslint-rules/core-layers.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { coreLayers } from './eslint-rules/core-layers.js';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const electronBan = {
  name: 'electron',
  message: 'Only the Electron shell (src/main/*.ts) and src/preload may import electron.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench/results/**', 'tests/e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  prettier,
  ...svelte.configs['flat/prettier'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  {
    files: ['src/main/core/**', 'src/server/**', 'tests/**', 'bench/**', 'src/main/web.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronBan] }] },
  },
  {
    files: ['src/main/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { workdesk: { rules: { 'core-layers': coreLayers } } },
    rules: { 'workdesk/core-layers': 'error' },
  },
  {
    // Cache SQL lives in the cache layer (`cache/repos/*`); the layers above call repositories.
    files: ['src/main/core/{handlers,entities,sync,outbox/kinds}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='prepare']",
          message: 'Prepare statements in a cache repository (src/main/core/cache/repos/*) and call it.',
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            ...nodeBuiltins.map((name) => ({ name, message: 'src/shared is pure TypeScript: no Node API.' })),
          ],
          patterns: [
            {
              group: ['**/main/**', '**/server/**', '**/renderer/**', '**/preload/**'],
              message: 'src/shared imports only itself.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'process',
        'Buffer',
        'require',
        'navigator',
        'localStorage',
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'The renderer has no Node API; ask the core through the bridge.',
            })),
          ],
          patterns: [
            {
              group: ['**/main/**', '**/server/**', '**/preload/**'],
              message: 'The renderer imports only src/shared (@shared/...) and itself.',
            },
          ],
        },
      ],
    },
  },
);
