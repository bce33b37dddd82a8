// ESLint flat config: typescript-eslint's recommended rules plus the 120-character line limit.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', '.data/', 'coverage/', 'server/core/platform/db/migrations/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      // Prettier wraps code at 120; this also catches the comments, strings and URLs it leaves long.
      'max-len': ['error', { code: 120, tabWidth: 2, ignoreUrls: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['element/**', 'demo/**', 'test/element/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers and fake collaborators loosely; `any` there costs no safety in the product.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The shared core has a name outside server/ (docs/architecture.md, "The shared core").
    files: ['**/*.{ts,js,mjs}'],
    ignores: ['server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+server/core/', message: 'Import the shared core as #core/….' }] },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
