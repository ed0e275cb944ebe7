// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'generated/', 'coverage/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware: each file is checked with the tsconfig that owns it (web/ has its own).
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Methods that implement a Promise-returning interface (an event bus, an Apollo plugin) may
      // have nothing to await; floating and misused promises are what these rules are here for.
      '@typescript-eslint/require-await': 'off',
      // A caught value is `unknown`: passing it on as it came is not inventing a non-Error.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // The rules engine is pure (style.md): it imports nothing outside src/domain but the few pure
  // packages listed here (hashing, seeded randomness, and property tests in its specs).
  ...[
    { files: ['src/domain/*.ts'], outside: '../**' },
    { files: ['src/domain/*/*.ts'], outside: '../../**' },
  ].map(({ files, outside }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [outside], message: 'src/domain imports only src/domain.' },
            {
              regex: '^(?!\\.|@noble/hashes/|pure-rand/|fast-check$)',
              message: 'src/domain is pure: no framework, database, I/O or other package imports (only @noble/hashes, pure-rand, fast-check).',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'Randomness comes in as a seed (rng.ts).' },
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'Time comes in as an argument.' },
        { selector: "NewExpression[callee.name='Date']", message: 'Time comes in as an argument.' },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Jest's asymmetric matchers (expect.any, expect.objectContaining) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
