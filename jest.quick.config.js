/**
 * `npm run test:quick`: the inner loop. The `default` project of jest.config.js without the tests
 * of {@link SLOW_TIER} (real toolchains, browsers, the build's output); `npm test` runs everything.
 * @type {import('jest').Config}
 */
const config = require('./jest.config');

/**
 * Test files (path patterns) that `npm run test:quick` leaves out, each group with its reason.
 * `npm test`, which CI runs, runs them all.
 */
const SLOW_TIER = [
  // The real Terraform CLI (init, plan, apply against a provider built or bundled for the test).
  '<rootDir>/test/e2e/',
  '<rootDir>/test/examples/(basic|gitops|import)\\.test\\.ts$',
  '<rootDir>/test/tfplugin/framework/e2e\\.test\\.ts$',
  '<rootDir>/test/constructs/gen\\.test\\.ts$',
  '<rootDir>/test/start\\.test\\.ts$',
  '<rootDir>/test/readme-example\\.test\\.ts$',
  // Packed installs into empty apps, Node.js 22 from the npm registry.
  '<rootDir>/test/package/',
  // The cdktf and cdktn command lines.
  '<rootDir>/test/constructs/cdktf-cli\\.test\\.ts$',
  '<rootDir>/test/cdktn/cli\\.test\\.ts$',
  // Chromium.
  '\\.browser\\.test\\.ts$',
  // Java: javac and JUnit.
  '<rootDir>/test/java/',
  // Provider executables: bundles, single executable applications, releases, installs.
  '<rootDir>/test/distribution/install\\.test\\.ts$',
  '<rootDir>/test/distribution/release/(cdktf-deploy|executable-trust|executable|registry|release)\\.test\\.ts$',
  '<rootDir>/test/tfplugin/framework/bundle\\.test\\.ts$',
  '<rootDir>/test/tfplugin/protocol/plugin-server\\.test\\.ts$',
  // The build's output (dist/, bin/orgadmin.js): in the inner loop it may be older than src/.
  '<rootDir>/test/cdktn/',
  '<rootDir>/test/constructs/package-types\\.test\\.ts$',
  '<rootDir>/test/tfplugin/protocol/unix-listen\\.test\\.ts$',
  '<rootDir>/test/cli/commands/(serve|demo)\\.test\\.ts$',
];

const [main] = config.projects.filter((project) => project.displayName === 'default');

module.exports = {
  ...config,
  // Every core: these tests wait on no toolchain, so two workers halve the wall time of two cores.
  maxWorkers: '100%',
  projects: [{ ...main, displayName: 'quick', testPathIgnorePatterns: ['/node_modules/', ...SLOW_TIER] }],
};
