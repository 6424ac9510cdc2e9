// Lint: typescript-eslint's recommended rules, plus the house rules on layering. Imports go one way, down LAYERS
// (core at the bottom); test/unit/layering.test.ts plants a bad import for every rule and checks that it bites.
// Workflow code stays deterministic: workflows/ imports only core/ and the Temporal workflow API.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Bottom to top: a folder may import its own layer's folders and those below, never one above. */
export const LAYERS = [
  ['core'],
  // The demo's own services and MCP servers (a UK train timetable, an FX desk, a shop): they import nothing of ours.
  ['demo'],
  ['tools'],
  ['endpoints'],
  ['goals', 'stream', 'readers', 'hooks'],
  ['blobs'],
  ['activities'],
  ['workflows'],
  ['runtime'],
  // Read models built from Temporal's histories (the run view, the registry's figures): the API serves them, the client
  // library and the CLI read them.
  ['views'],
  ['client'],
  ['api'],
  ['worker'],
];

/** A relative import of one of these top-level folders, from any depth. */
const folders = (...names) => `^(\\./)?(\\.\\./)+(${names.join('|')})(/|$)`;
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const below = (layer) => LAYERS.slice(0, layer).flat();
const above = (layer) => LAYERS.slice(layer + 1).flat();
const NOT_PRODUCT = ['test', 'testkit', 'bench', 'evals', 'examples', 'web'];

const layerRules = LAYERS.flatMap((names, layer) =>
  names
    .filter((name) => name !== 'workflows')
    .map((name) => ({
      files: [`${name}/**/*.ts`],
      rules: restrict({
        regex: folders(...above(layer), ...NOT_PRODUCT),
        message: `${name}/ imports only ${[...names, ...below(layer)].join(', ')} (layers: ${LAYERS.map((l) => l.join('+')).join(' < ')}).`,
      }),
    })),
);

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
    // CommonJS files (the jest config, the bin shim) load modules with require.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layerRules,
  {
    // Core is shared by the workflow sandbox and the browser: no I/O, nothing of ours.
    files: ['core/**/*.ts'],
    rules: restrict(
      {
        group: ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)],
        message: 'core/ is pure: no I/O (it runs in the workflow sandbox and the browser).',
      },
      { regex: folders(...above(0), ...NOT_PRODUCT), message: 'core/ imports nothing of ours.' },
    ),
  },
  {
    files: ['workflows/**/*.ts'],
    rules: restrict(
      {
        group: ['node:*', ...builtinModules, ...builtinModules.map((m) => `${m}/*`)],
        message: 'Workflow code must not do I/O.',
      },
      {
        regex: folders(...LAYERS.flat().filter((f) => f !== 'core' && f !== 'workflows'), ...NOT_PRODUCT),
        message: 'workflows/ imports only core/ (what runs in the sandbox).',
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
    // Shared by test/ and bench/, which never import each other.
    files: ['testkit/**/*.ts'],
    rules: restrict({
      regex: folders('test', 'bench'),
      message: 'testkit/ is shared by test/ and bench/: it imports neither.',
    }),
  },
  {
    files: ['test/**/*.ts'],
    rules: restrict({ regex: folders('bench'), message: 'test/ does not import bench/ (share through testkit/).' }),
  },
  {
    files: ['bench/**/*.ts'],
    rules: restrict({ regex: folders('test'), message: 'bench/ does not import test/ (share through testkit/).' }),
  },
  {
    // The web chat runs in the browser: it talks to the API over HTTP and shares only core/ with the server side.
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
    rules: restrict({
      regex: folders(...LAYERS.flat().filter((f) => f !== 'core'), ...NOT_PRODUCT.filter((f) => f !== 'web')),
      message: 'web/ imports only core/ from outside web/ (it runs in the browser).',
    }),
  },
);
