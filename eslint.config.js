// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'generated/', 'coverage/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
  {
    // The rules engine is pure: no framework, ORM, I/O, clock or ambient randomness (style.md).
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@nestjs/*',
                '@prisma/*',
                'graphql',
                'graphql-*',
                'pg',
                'postgres',
                'ioredis',
                'class-validator',
                'node:*',
                'fs',
                'net',
                'http',
              ],
              message: 'src/domain is pure: no framework, database or I/O imports.',
            },
            {
              group: [
                '**/matches/*',
                '**/database/*',
                '**/config/*',
                '**/common/*',
                '**/players/*',
                '**/history/*',
                '**/realtime/*',
                '**/subscriptions/*',
                '**/generated/*',
              ],
              message: 'src/domain imports only src/domain.',
            },
          ],
        },
      ],
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
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
