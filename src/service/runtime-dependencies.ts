/**
 * The packages the service needs at run time. The orgadmin package does not install them (a user
 * of the constructs or the SDK should not build a native SQLite driver); the orgadmin-service
 * package does. This module loads none of them, so it can say what is missing before anything
 * fails with Node's bare "Cannot find module".
 */

/** npm packages the service's code requires, with what each is for. */
export const SERVICE_RUNTIME_PACKAGES: ReadonlyArray<{ name: string; purpose: string }> = [
  { name: 'fastify', purpose: 'HTTP' },
  { name: '@fastify/formbody', purpose: 'form bodies' },
  { name: 'better-sqlite3', purpose: 'the embedded SQLite store' },
  { name: 'pg', purpose: 'the PostgreSQL store' },
  { name: 'prom-client', purpose: 'Prometheus metrics' },
  { name: 'pino-pretty', purpose: 'the readable log format (serve --log-format pretty)' },
  { name: 'openid-client', purpose: 'single sign-on through organizations\' identity providers' },
];

/** The package that brings {@link SERVICE_RUNTIME_PACKAGES}. */
export const SERVICE_PACKAGE = 'orgadmin-service';

/**
 * Names of the service's runtime packages that cannot be resolved from the service's code.
 * `resolve` is injectable for tests; by default it resolves from this module's directory, which is
 * where the service's own `require` calls resolve from.
 */
export function missingServicePackages(resolve: (name: string) => string = require.resolve): string[] {
  return SERVICE_RUNTIME_PACKAGES.filter(({ name }) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  }).map(({ name }) => name);
}

/** Raised when the service is used from an install that left its runtime packages out. */
export class ServiceNotInstalledError extends Error {
  /** A stable code for callers that switch on it. */
  readonly code = 'ORGADMIN_SERVICE_NOT_INSTALLED';

  /** @param missing the packages that could not be resolved */
  constructor(readonly missing: readonly string[]) {
    super(
      `the Organization Administration Service needs ${missing.join(', ')}, which this install does not have: ` +
        `run "npm install ${SERVICE_PACKAGE}" (it brings the service's runtime packages; the orgadmin package alone ` +
        'holds the SDK, the constructs and the Terraform provider).',
    );
    this.name = 'ServiceNotInstalledError';
  }
}

/** Throws {@link ServiceNotInstalledError} when any runtime package is missing. */
export function assertServiceInstalled(resolve?: (name: string) => string): void {
  const missing = missingServicePackages(resolve);
  if (missing.length > 0) throw new ServiceNotInstalledError(missing);
}
