/**
 * Builds the HTTP app of the Organization Administration Service without listening, so tests can
 * use `app.inject()` and `server.ts` can own the process.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { VerifiedTokenCache } from './auth/verified-tokens';
import { type ServiceContext } from './context';
import { AllowedMethods } from './allowed-methods';
import { installErrorHandling } from './errors';
import { clientErrorHandler, frameworkErrors } from './framework-errors';
import { installJsonBodyParser } from './json-body';
import { refuseControlCharactersInQuery } from './text-checks';
import { RateLimiter, type RateLimitOptions } from './rate-limit';
import { discoveryRoutes } from './routes/discovery';
import { membershipRoutes } from './routes/memberships';
import { organizationRoutes } from './routes/organizations';
import { portalRoutes } from './routes/portal';
import { tokenRoutes } from './routes/token';
import { userRoutes } from './routes/users';
import type { Store } from './store/store';
import { typeboxValidatorCompiler } from './validation';

/** Largest request body the service reads (SERVICE_API.md: 413 above it). */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Default lifetime of admin portal links. */
export const DEFAULT_PORTAL_LINK_LIFETIME_SECONDS = 86400;

/** Options of {@link buildApp}. */
export interface AppOptions {
  /** Where everything is kept. The app does not close it. */
  store: Store;
  /** The service's DNS domain; `<realm>.<domain>` pins requests to a realm. Default `localhost`. */
  domain?: string;
  /** Public base address for `iss` and links; default: derived from each request's Host and protocol. */
  publicBaseUrl?: string;
  /** Rate limit per realm + client (per realm + user for end users of the public client); off when undefined. */
  rateLimit?: RateLimitOptions;
  /** fastify logger setting (default off). Query-string tokens are redacted from logged URLs. */
  logger?: boolean | object;
  /** Lifetime of admin portal links (default 86400 s). */
  portalLinkLifetimeSeconds?: number;
}

/** Hides secrets that may travel in a URL (portal link tokens). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|client_secret)=)[^&]*/gi, '$1[redacted]');
}

function loggerOption(logger: AppOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = typeof logger === 'object' ? logger : {};
  return {
    level: 'info',
    ...base,
    serializers: {
      // Only method, redacted URL and address: never headers (Authorization) or bodies (secrets).
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        remoteAddress: req.ip,
      }),
      ...((base as { serializers?: object }).serializers ?? {}),
    },
  } as FastifyServerOptions['logger'];
}

/** Builds the app (routes, validation, error handling); does not listen. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOption(options.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    // Path parameters may be up to 255 characters (after decoding); the router's default is 100.
    routerOptions: { maxParamLength: 2048 },
    // Failures before the error handler runs (bad percent-encoding, malformed HTTP) answer in the
    // service's error shape too.
    frameworkErrors,
    clientErrorHandler,
  });
  app.setValidatorCompiler(typeboxValidatorCompiler);
  const allowedMethods = new AllowedMethods();
  allowedMethods.track(app);
  installErrorHandling(app, (path) => allowedMethods.allowedFor(path));
  installJsonBodyParser(app);
  app.addHook('preValidation', refuseControlCharactersInQuery);

  const ctx: ServiceContext = {
    store: options.store,
    domain: options.domain ?? 'localhost',
    publicBaseUrl: options.publicBaseUrl,
    rateLimiter: options.rateLimit ? new RateLimiter(options.rateLimit) : undefined,
    portalLinkLifetimeSeconds: options.portalLinkLifetimeSeconds ?? DEFAULT_PORTAL_LINK_LIFETIME_SECONDS,
    verifiedTokens: new VerifiedTokenCache(),
  };
  await app.register(tokenRoutes, { ctx });
  await app.register(discoveryRoutes, { ctx });
  await app.register(organizationRoutes, { ctx });
  await app.register(membershipRoutes, { ctx });
  await app.register(userRoutes, { ctx });
  await app.register(portalRoutes, { ctx });
  return app;
}
