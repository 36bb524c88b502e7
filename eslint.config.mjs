// ESLint: typescript-eslint's type-aware rules on every TypeScript file the two tsconfigs hold
// (docs/TESTING.md "Formatting and linting"). Formatting is Biome's (biome.json), so no style rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Every generated directory of .gitignore: the deployed suite synthesizes into .deployed/ beside the
  // lint in \`npm test\`, and ESLint walking a bundling-temp directory CDK just removed failed with ENOENT.
  {
    ignores: [
      'node_modules/',
      'cdk.out*/',
      '.local/',
      '.deployed/',
      '.bench/',
      '.build/',
      '.localstack/',
      'coverage/',
      'test-output/',
      'client/generated/',
      'console/dist/',
      '**/*.d.ts',
      '**/*.cjs',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      // Two named projects instead of projectService: the same type information, parsed once per
      // project instead of per file's inferred project (lint 182 -> 132 s of CPU measured in issue 40).
      parserOptions: { project: ['./tsconfig.json', './console/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests and benches read synthesized templates and raw SDK inputs whose shapes are not typed.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
