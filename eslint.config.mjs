// Lint that catches real bugs: floating promises, misused promises, exhaustive switches, ===.
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'jest.config.js',
      'eslint.config.mjs',
      '.dependency-cruiser.cjs',
      '.ci/*.js',
      'test/support/*.cjs',
      'client/schema.d.ts',
      'client/dist/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/await-thenable': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/cli.ts', 'bench/**/*.js'], rules: { 'no-console': 'off' } },
  // The benchmark tools are CommonJS scripts run by node as they are (no build step).
  {
    files: ['bench/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // One-off measurements kept to reproduce a RESULTS.md figure: linted, but outside tsconfig.json
  // (not type-checked, bench/experiments/README.md), so without the rules that need type information.
  { files: ['bench/experiments/**/*.js'], ...tseslint.configs.disableTypeChecked },
);
