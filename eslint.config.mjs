// Lint with the layer rules of DESIGN.md, enforced as import restrictions:
//  - src-preload/contract imports nothing but zod and its own files;
//  - src-main/core never imports `electron`;
//  - src-renderer imports from the contract only types and the pure `fold`,
//    never zod, never electron, never anything from src-main.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

// `import('electron')` escapes no-restricted-imports, which sees only static imports.
const noDynamicElectron = {
  // `\x2F` is `/`: esquery's regex literal cannot contain an escaped slash.
  selector: 'ImportExpression[source.value=/^electron($|\\x2F)/]',
  message: 'No dynamic import of electron here either (DESIGN.md: Layering rules).',
};

export const layerRules = {
  contract: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(?!zod$|zod/|\\./[^/]+$)',
            message: 'The contract imports only zod and its own files (DESIGN.md: Layering rules).',
          },
        ],
      },
    ],
  },
  core: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [{ name: 'electron', message: 'src-main/core never imports electron; put it in src-main/electron.' }],
        patterns: [
          { group: ['electron/*'], message: 'src-main/core never imports electron.' },
          { group: ['**/src-renderer/**', '**/electron/**', '../electron', '../../electron'], message: 'src-main/core imports neither the renderer nor the Electron glue.' },
        ],
      },
    ],
  },
  renderer: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'electron', message: 'The renderer has no Node and no Electron; use window.openai4s.' },
          { name: 'zod', message: 'The renderer ships no schema code; import contract types with `import type`.' },
          // Bare built-in names too (`fs`, `path`, `child_process`), not only `node:*`.
          ...builtinModules.map((name) => ({ name, message: 'The renderer has no Node built-ins.' })),
        ],
        // Regexes, not globs: with gitignore-style globs a matched parent folder
        // (`**/contract`) cannot be re-included by a negation (`!**/contract/fold`).
        patterns: [
          { group: ['**/src-main/**', '**/src-main'], message: 'The renderer never imports from main.' },
          {
            regex: '(^|/)src-preload(?!/contract(/|$))(/.*)?$',
            message: 'The renderer imports the contract only, never the preload.',
          },
          {
            // Pure, dependency-free modules the renderer runs too: the fold, the evidence labels, the cell view, the chunk page unpacker, the UI language rule.
            regex: '(^|/)contract(?!/(fold|evidenceLabel|cellView|chunkPage|uiLanguage)(\\.ts)?$)(/.*)?$',
            allowTypeImports: true,
            message: 'From the contract the renderer imports only types (`import type`), the pure fold, the evidence labels, the cell view, the chunk page unpacker and the UI language rule.',
          },
          { group: ['node:*'], message: 'The renderer has no Node built-ins.' },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'tests/lint/fixtures/**', 'kernel-workers/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['src-preload/contract/**/*.ts'], rules: layerRules.contract },
  { files: ['src-main/core/**/*.ts'], rules: { ...layerRules.core, 'no-restricted-syntax': ['error', noDynamicElectron] } },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...layerRules.renderer,
      'no-restricted-syntax': ['error', noDynamicElectron],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  { files: ['bin/**/*.cjs', 'scripts/**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
