/** @type {import('jest').Config} */
const os = require('node:os');

module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  // The workflow code, bundled once for every test file (testkit/global-setup.ts).
  globalSetup: '<rootDir>/testkit/global-setup.ts',
  globalTeardown: '<rootDir>/testkit/global-teardown.ts',
  // One and a half files per core, three at least: most of an integration test's time is spent waiting on its dev
  // server, worker and child processes, not on CPU. Each file has its own dev server. On 2 cores, 2 files at a time
  // kept the CPU 65% busy and took 466 s; 3 kept it over 90% busy and took 393 s, every test passing. Since then the
  // suite grew and is CPU-bound: in clean-clone runs 3 took 555-606 s, and 4 files at a time took 563 s (no gain).
  maxWorkers: Math.max(3, Math.ceil(1.5 * (os.availableParallelism ? os.availableParallelism() : os.cpus().length))),
  testTimeout: 60_000,
  // jose (the A2A SDK's dependency) is ESM only: Node requires it as it is (require(esm)), Jest's sandbox cannot, so
  // it is compiled to CommonJS for the tests.
  transform: {
    '^.+\\.tsx?$': 'ts-jest',
    '/node_modules/jose/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
