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
  // Two files at a time at least, even on two cores: most of an integration test's time is spent waiting on its dev
  // server, worker and child processes, not on this process's CPU. Each file has its own dev server.
  maxWorkers: Math.max(2, os.availableParallelism ? os.availableParallelism() : os.cpus().length),
  testTimeout: 60_000,
};
