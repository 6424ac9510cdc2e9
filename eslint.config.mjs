// Lint: typescript-eslint's recommended rules, plus the house rule that workflow code stays deterministic:
// workflows/ may import only pure modules (types, constants, zod) and the Temporal workflow API.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'bench/results/', 'coverage/', 'bin/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['*.js', 'bin/*.js'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process', 'http', 'https', 'net', 'os', 'crypto'], message: 'Workflow code must not do I/O.' },
            { group: ['../activities*', '../activities/**', '../mcp*', '../mcp/**', '../tools/**', '../worker*', '../worker/**', '../client*', '../client/**'], message: 'workflows/ imports only pure modules.' },
            { group: ['@temporalio/activity', '@temporalio/worker', '@temporalio/client', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/client*', 'ai', '@ai-sdk/*'], message: 'Not in the workflow sandbox.' },
          ],
        },
      ],
    },
  },
);
