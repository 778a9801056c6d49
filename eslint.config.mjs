// The rules a tool keeps (docs/architecture.md, "Contributing"). Rules without type information only:
// no parser project, so the whole tree lints in seconds. Formatting is Prettier's alone (eslint-config-prettier last).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'reports/', 'test-results/', 'playwright-report/', 'demo/build/', '.sandbox/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  // The regexp plugin's recommended rules (with ESLint's own regex rules as errors), its own as warnings
  // (style and clarity), but its ReDoS rules: errors, below.
  regexp.configs['flat/recommended'],
  {
    rules: Object.fromEntries(
      Object.entries(regexp.configs['flat/recommended'].rules)
        .filter(([name]) => name.startsWith('regexp/'))
        .map(([name, level]) => [name, Array.isArray(level) ? ['warn', ...level.slice(1)] : 'warn']),
    ),
  },
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      // TypeScript 6.0 is newer than typescript-eslint's tested range; the rules used here need no type information.
      parserOptions: { warnOnUnsupportedTypeScriptVersion: false },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A security library full of regexes: no pattern may backtrack super-linearly on crafted input.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // One import statement per module; a type-only import may stay separate (verbatimModuleSyntax keeps
      // a value import of types only as a side-effect import). A module's re-exports are not imports.
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      // `_` names a value kept on purpose (a rest sibling, a placeholder argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Tests and fixtures read untyped page globals and forged messages: `any` is flagged, not forbidden.
      '@typescript-eslint/no-explicit-any': 'warn',
      // Files short enough to read in one sitting: a long function is a warning to split it (an error in src/, below).
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The shipped code holds the line: a function over 80 lines is split into named parts (issue 40).
    files: ['src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // Tests, browser tests and benchmarks read the repository's own files and their own output, never a
    // stranger's text: a super-linear pattern there is worth a warning, not a failure.
    files: ['test/**', 'e2e/**', 'bench/**'],
    rules: { 'regexp/no-super-linear-backtracking': 'warn', 'regexp/no-super-linear-move': 'warn' },
  },
  {
    // Kept off on purpose where the code is a test's, not the product's (issue 40 item 7):
    // - `any`: a browser test talks to the page's `window` (`form`, `recorded`, forged messages) from
    //   inside `page.evaluate`, and a unit test reads answers whose shape is what it checks; a type there
    //   would be a second, unchecked copy of the wire.
    // - a long function: a `describe` or a scenario is a list of steps read top to bottom, and a bench
    //   part's `run` is its report; splitting them would hide the order the test or report follows.
    // - super-linear patterns: these files read the repository's own files and their own output, never a
    //   stranger's text, so no crafted input reaches them (src/, bin/ and the demo keep the errors).
    files: ['test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'max-lines-per-function': 'off',
      'regexp/no-super-linear-backtracking': 'off',
      'regexp/no-super-linear-move': 'off',
    },
  },
  {
    // The demo is a merchant's code to read: its route tables are one function each on purpose, as an
    // Express app's routes are one file, so that a reader sees every route of a page in one place.
    files: ['demo/**'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // Plain scripts of the e2e pages: the UMD bundle's global.
    files: ['e2e/support/*.js'],
    languageOptions: { sourceType: 'script', globals: { Payframe: 'readonly' } },
  },
  prettier,
);
