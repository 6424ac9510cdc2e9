// Lint: typescript-eslint's recommended rules, plus the house rules on layering. Workflow code stays
// deterministic: workflows/ imports only pure modules (types, constants, zod) and the Temporal workflow API. The
// other folders import one way only: worker → api → client → activities, goals, tools, mcp, stream → workflows.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A relative import of one of these top-level folders, from any depth. */
const folders = (...names) => `^(\\.{1,2}/)+(${names.join('|')})(/|$)`;

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'bench/results/', 'coverage/', 'bin/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['*.js', 'bin/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: restrict(
      {
        group: ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)],
        message: 'Workflow code must not do I/O.',
      },
      {
        regex: folders('activities', 'goals', 'mcp', 'tools', 'stream', 'worker', 'client', 'api', 'bench', 'test'),
        message: 'workflows/ imports only pure modules.',
      },
      {
        group: [
          '@temporalio/activity',
          '@temporalio/worker',
          '@temporalio/client',
          '@temporalio/testing',
          '@modelcontextprotocol/sdk',
          '@modelcontextprotocol/sdk/client*',
          'ai',
          '@ai-sdk/*',
        ],
        message: 'Not in the workflow sandbox.',
      },
    ),
  },
  {
    files: ['client/**/*.ts'],
    rules: restrict({
      regex: folders('worker', 'api'),
      message: 'The client does not import the worker or the API (they may import the client).',
    }),
  },
  {
    files: ['api/**/*.ts'],
    rules: restrict({
      regex: folders('worker'),
      message: 'The API does not import the worker (npm start, in worker/, starts the API).',
    }),
  },
  {
    files: ['activities/**/*.ts', 'goals/**/*.ts', 'tools/**/*.ts', 'mcp/**/*.ts', 'stream/**/*.ts'],
    rules: restrict({
      regex: folders('worker', 'api', 'client'),
      message: 'Activities, goals, tools, mcp and stream are below the worker, the API and the client.',
    }),
  },
  {
    // The web chat runs in the browser: it talks to the API over HTTP and shares only types with the server side.
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/vite.config.ts'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'localStorage',
          'fetch',
          'EventSource',
          'MessageEvent',
          'Response',
          'HTMLElement',
          'console',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+',
              allowTypeImports: true,
              message: 'web/ imports only types from outside web/ (it runs in the browser).',
            },
          ],
        },
      ],
    },
  },
);
