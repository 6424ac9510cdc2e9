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
  // Two files per core: most of an integration test's time is spent waiting on its dev server, worker and child
  // processes (and fault tests on the timeouts they shorten), not on CPU. Each file has its own dev server. On 2 cores,
  // 2 files at a time kept the CPU 65% busy; 3 kept it 83% busy (npm test 555-606 s in seven clean-clone runs).
  maxWorkers: 2 * (os.availableParallelism ? os.availableParallelism() : os.cpus().length),
  testTimeout: 60_000,
};
