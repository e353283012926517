/**
 * Jest runs the TypeScript sources directly through SWC (type checking is `npm run typecheck`,
 * which `npm test` runs first), so a test run does not pay for a second compilation.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // fastify's inject() needs `cookie@2`, shipped as ESM-flavoured JS that jest's CommonJS runtime
  // cannot load untransformed; let SWC transform that one package too.
  transformIgnorePatterns: ['/node_modules/(?!cookie/)'],
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // Tests that start real processes (terraform, the provider, PostgreSQL) fight for 2 cores.
  maxWorkers: process.env.CI ? 2 : '50%',
};
