// ESLint: recommended JS and type-aware TypeScript rules for the front end and tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['pkg/**', 'pkg-labs/**', 'dist/**', 'node_modules/**', 'target/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['tests/node/**/*.mjs', 'tests/e2e/**/*.mjs', 'tests/browsers/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: {
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', document: 'readonly', window: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', PerformanceObserver: 'readonly', fetch: 'readonly', WebAssembly: 'readonly' },
    },
  },
  {
    // The benchmark runners (Node, plus a probe that runs in the page).
    files: ['bench/**/*.mjs'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        document: 'readonly',
        window: 'readonly',
        MutationObserver: 'readonly',
        requestAnimationFrame: 'readonly',
      },
    },
  },
);
