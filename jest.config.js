/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],

  testTimeout: 60_000,
};
