/**
 * Jest runs the TypeScript sources directly through SWC (type checking is `npm run typecheck`,
 * which `npm test` runs first), so a test run does not pay for a second compilation.
 *
 * Two projects: `default` runs every test; `e2e-hosted` runs the end-to-end files whose answers
 * differ by mode a second time, against the service in hosted-service compatibility mode
 * (`ORGADMIN_TEST_COMPAT=hosted`, read by test/e2e/helpers/fixture.ts). That mode changes error
 * answers only (src/service/compat.ts: Keycloak's bodies, 401 for a missing permission), so the
 * second run covers the files that meet them: errors (diagnostics built from error answers, the
 * permission case), provider (the whole lifecycle, with drift read from 404 answers) and roles (a
 * grant to a non-member, told without the service's error code). The others meet no error answer
 * (import: its one refusal is the provider's own) or decide by status alone (faults, cancel,
 * examples, rate-limit, state-upgrade: 429, 5xx, 404, 409 are the same in both modes) and run
 * once. `npx jest --selectProjects default` skips the second run.
 *
 * `npm test` runs both projects. `npm run test:quick` (jest.quick.config.js) runs the default
 * project without the tests that drive real toolchains and browsers or read the build, which
 * `npm test` makes first.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // openid-client and its dependencies ship ES modules only; Node.js requires them as they are
  // (require(esm), Node.js 20.19+), jest's module system needs them compiled like the sources.
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'default', roots: ['<rootDir>/test'] },
    {
      ...shared,
      displayName: 'e2e-hosted',
      roots: ['<rootDir>/test/e2e'],
      testMatch: ['**/e2e/errors.test.ts', '**/e2e/provider.test.ts', '**/e2e/roles.test.ts'],
      setupFiles: ['<rootDir>/test/e2e/helpers/hosted-mode.js'],
    },
  ],
  // A global option (not a project one): the default for every test.
  testTimeout: 30000,
  // Tests that start real processes (terraform, the provider, PostgreSQL) fight for 2 cores.
  maxWorkers: process.env.CI ? 2 : '50%',
};
