/**
 * Jest runs the TypeScript sources directly through SWC (type checking is `npm run typecheck`,
 * which `npm test` runs first), so a test run does not pay for a second compilation.
 *
 * Two projects: `default` runs every test; `e2e-hosted` runs the provider's end-to-end suite
 * (test/e2e) a second time against the service in hosted-service compatibility mode
 * (`ORGADMIN_TEST_COMPAT=hosted`, read by test/e2e/helpers/fixture.ts), so the provider is tested
 * against both behaviours. `npx jest --selectProjects default` skips the second run.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'default', roots: ['<rootDir>/test'] },
    {
      ...shared,
      displayName: 'e2e-hosted',
      roots: ['<rootDir>/test/e2e'],
      setupFiles: ['<rootDir>/test/e2e/helpers/hosted-mode.js'],
    },
  ],
  testTimeout: 30000,
  // A global option (not a project one): the default for every test.
  testTimeout: 30000,
  // Tests that start real processes (terraform, the provider, PostgreSQL) fight for 2 cores.
  maxWorkers: process.env.CI ? 2 : '50%',
};
