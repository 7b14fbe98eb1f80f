// ESLint flat config for the whole repository: TypeScript (type-aware where it pays), React hooks,
// accessibility, no import cycles, and the boundaries between the workspace packages.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import noImportCycle from './tools/eslint/no-import-cycle.js';
import noLiteralUiText from './tools/eslint/no-literal-ui-text.js';

const OUR_PACKAGES = ['@aidressup/*', '@aidressup/*/*'];

/** `no-restricted-imports` patterns for one package's boundary. */
function boundary(groups, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }] };
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'playwright-report/**',
      'test-results/**',
      'bench/out/**',
      'data/**',
      '.scratch*/**',
      'e2e/stand-ins/paddle-js-stand-in.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { local: { rules: { 'no-import-cycle': noImportCycle, 'no-literal-ui-text': noLiteralUiText } } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'local/no-import-cycle': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  // Type-aware rules, where they catch real bugs: promises nobody awaits, awaiting non-promises,
  // promises passed where a callback's result is ignored, and casts that do nothing.
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.tests.json', './apps/web/tsconfig.json', './e2e/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Tests read JSON answers with a cast to the shape they expect.
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
  {
    // Root tool configs belong to no TypeScript project.
    files: ['*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: null } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      // The hooks rules proper. The plugin's React Compiler rules (refs, purity, set-state-in-effect…)
      // judge code written for the compiler, which this app does not use.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // Every word a shopper reads comes from the message catalogs (packages/contract/catalogs), in every language.
    files: ['apps/web/src/**/*.tsx'],
    // The operator console (features/admin) is the team's tool and English only by design
    // (docs/operations.md); shoppers never see it, so its words are not in the catalogs.
    ignores: ['**/*.test.tsx', 'apps/web/src/features/admin/**'],
    rules: { 'local/no-literal-ui-text': ['error', { allow: ['AI Dress Up'] }] },
  },
  {
    files: ['e2e/stand-ins/**/*.js', 'apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Boundaries: the contract imports nothing of ours; the engine never imports the server;
  // the web app never imports the server or the engine.
  {
    files: ['packages/contract/**'],
    rules: boundary([...OUR_PACKAGES, '**/apps/**', '**/packages/engine/**'], 'The contract imports nothing of ours.'),
  },
  {
    files: ['packages/engine/**'],
    rules: boundary(
      ['@aidressup/server', '@aidressup/server/*', '@aidressup/web', '@aidressup/web/*', '**/apps/**'],
      'The engine never imports the server or the web app.',
    ),
  },
  {
    files: ['apps/web/**'],
    rules: boundary(
      [
        '@aidressup/server',
        '@aidressup/server/*',
        '@aidressup/engine',
        '@aidressup/engine/*',
        '**/apps/server/**',
        '**/packages/engine/**',
      ],
      'The web app talks to the server over HTTP and never imports the server or the engine.',
    ),
  },
  // Inside the server the layers point one way: plugins → http ← routes → work (tryon/, services/,
  // ledger/, repositories/ and the providers). Nothing below the routes reaches up into the HTTP
  // layer, and queue/ is the transport only. (Tests may reach anywhere.)
  {
    files: ['apps/server/src/plugins/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: boundary(['**/routes/**'], 'A plugin never imports a route: what both need lives in http/.'),
  },
  {
    files: ['apps/server/src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: boundary(
      ['**/routes/**', '**/plugins/**'],
      'http/ holds helpers for routes and plugins and imports neither.',
    ),
  },
  {
    files: ['apps/server/src/routes/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: boundary(
      ['**/plugins/**'],
      "Routes use the request helpers in http/ (and the app's decorations), not plugin modules.",
    ),
  },
  {
    files: [
      'apps/server/src/{tryon,services,ledger,repositories,billing,engines,storage,mail,db,redis,metrics}/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: boundary(
      ['**/routes/**', '**/http/**', '**/plugins/**'],
      'The work below the routes never imports the HTTP layer (routes, http/, plugins).',
    ),
  },
  {
    files: ['apps/server/src/queue/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: boundary(
      ['**/routes/**', '**/http/**', '**/plugins/**', '**/tryon/**', '**/services/**'],
      'queue/ is the job transport only: it knows nothing of try-ons (tryon/) or the HTTP layer.',
    ),
  },
);
