/**
 * Builds the HTTP app of the Organization Administration Service without listening, so tests can
 * use `app.inject()` and `server.ts` can own the process.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { Admin } from './admin';
import { DEFAULT_PORTAL_LINK_LIFETIME_SECONDS } from './admin/organizations';
import { ApiKeySecrets } from './auth/api-key-secrets';
import { CredentialThrottle, type CredentialThrottleOptions } from './auth/credential-throttle';
import { HashGate, type HashGateOptions } from './auth/hash-gate';
import { RevocationList } from './auth/revocations';
import { VerifiedTokenCache } from './auth/verified-tokens';
import { UpstreamClients } from './broker/upstream';
import { type ServiceContext } from './context';
import { AllowedMethods } from './allowed-methods';
import { dnsTxtLookup, type TxtLookup } from './domains/txt-lookup';
import { installErrorHandling } from './errors';
import { answerNodeRefusalsInJson, clientErrorHandler, frameworkErrors } from './framework-errors';
import { requireAllowedHost, requireOneHost } from './host-header';
import { loggerOption } from './request-log';
import { MemberCheckFastPath } from './member-check-fast-path';
import { installJsonBodyParser } from './json-body';
import { refuseControlCharactersInQuery } from './text-checks';
import { RateLimiter, type RateLimitOptions } from './rate-limit';
import { authorizeRoutes } from './routes/authorize';
import { brokerRoutes } from './routes/broker';
import { dashboardRoutes } from './routes/dashboard';
import { discoveryRoutes } from './routes/discovery';
import { domainRoutes } from './routes/domains';
import { identityProviderRoutes } from './routes/identity-providers';
import { oidcRoutes } from './routes/oidc';
import { membershipRoutes } from './routes/memberships';
import { memberRoleRoutes } from './routes/member-roles';
import { organizationRoutes } from './routes/organizations';
import { portalRoutes } from './routes/portal';
import { roleRoutes } from './routes/roles';
import { unsupportedRoutes } from './routes/unsupported';
import { transferRoutes } from './operations/transfer-routes';
import { installCompatMode, type CompatMode } from './compat';
import { installOperations, requestIdGenerator, type OperationsOptions } from './operations';
import { checkedSerializerCompiler } from './response-check';
import { tokenRoutes } from './routes/token';
import { userRoutes } from './routes/users';
import { eventRoutes } from './routes/events';
import { webhookRoutes } from './routes/webhooks';
import type { Store } from './store/store';
import { typeboxValidatorCompiler } from './validation';

/** Largest request body the service reads (docs/guides/service.md: 413 above it). */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Default lifetime of admin portal links. */
export { DEFAULT_PORTAL_LINK_LIFETIME_SECONDS } from './admin/organizations';

/** Options of {@link buildApp}. */
export interface AppOptions {
  /** Where everything is kept. The app does not close it. */
  store: Store;
  /** The service's DNS domain; `<realm>.<domain>` pins requests to a realm. Default `localhost`. */
  domain?: string;
  /** Public base address for `iss` and links; default: derived from each request's Host and protocol. */
  publicBaseUrl?: string;
  /**
   * The hosts requests may name in `Host` (`orgs.example.com`, or `*.example.com` for any
   * subdomain); any other is 400 `invalid_request`. Default: any host.
   */
  allowedHosts?: readonly string[];
  /**
   * Default rate limit per realm + caller (an API key, or an end user: auth/guards.ts rateLimitKey),
   * for realms without their own setting; off when undefined.
   */
  rateLimit?: RateLimitOptions;
  /**
   * fastify logger setting (default off): one line per answered request plus errors
   * (operations/request-observer.ts). Secrets are redacted from logged URLs and errors (request-log.ts).
   */
  logger?: boolean | object;
  /** Lifetime of admin portal links (default 86400 s). */
  portalLinkLifetimeSeconds?: number;
  /** `hosted` reproduces the real hosted service's quirks (see compat.ts); default `standard`. */
  compat?: CompatMode;
  /**
   * Failed-credential throttle settings (default `DEFAULT_CREDENTIAL_THROTTLE`: 5 free
   * failures per realm + client id or username + source address, then 1 s doubling to 15 min).
   */
  credentialThrottle?: Partial<CredentialThrottleOptions>;
  /**
   * The bound on slow credential hashes (default `DEFAULT_HASH_GATE`: one at a time and 8 waiting
   * per source address, one per core up to 4 and 512 waiting overall).
   */
  hashGate?: Partial<HashGateOptions>;
  /**
   * The service's clock, milliseconds since the epoch (default `Date.now`): token times, expiry,
   * throttling, rate limits and revocations all read it, so tests step time instead of sleeping.
   */
  now?: () => number;
  /**
   * Answer plain successful membership checks in front of fastify's router
   * (member-check-fast-path.ts: the same rules, the same answers, but none of fastify's hooks).
   * Default off, since the caller may add hooks to the app; `startServer` turns it on. Its
   * requests are logged and counted like fastify's (operations/request-observer.ts).
   */
  memberCheckFastPath?: boolean;
  /**
   * Whether webhook URLs may reach loopback, link-local and private addresses (`serve
   * --allow-private-webhooks`). Default off: a webhook could otherwise probe the service's network.
   */
  allowPrivateWebhooks?: boolean;
  /** Metrics, health probes and their endpoints (operations/index.ts); probes are served by default. */
  operations?: OperationsOptions;
  /**
   * The DNS server domain verification asks, `HOST:PORT` (default: the system's resolvers);
   * `orgadmin serve --dns-server`. Ignored when `txtLookup` is given.
   */
  dnsServer?: string;
  /** How domain verification looks TXT records up (default: a real DNS query, see `dnsServer`). */
  txtLookup?: TxtLookup;
}

/** Hides secrets that may travel in a URL (portal link tokens, tokens pasted into the path). */
export { redactUrl } from './request-log';

/** Builds the app (routes, validation, error handling); does not listen. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const nextRequestId = requestIdGenerator();
  const app = Fastify({
    logger: loggerOption(options.logger),
    // One line per request, written by operations/request-observer.ts (fastify writes two).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    // A graceful shutdown answers requests still arriving on open connections (with Connection:
    // close) instead of 503 (operations/shutdown.ts).
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Path parameters may be up to 255 characters (after decoding); the router's default is 100.
    // A trailing slash names the same path (`/orgs/` = `/orgs`), as in the real service (JAX-RS).
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    // Failures before the error handler runs (bad percent-encoding, malformed HTTP) answer in the
    // service's error shape too.
    frameworkErrors,
    clientErrorHandler,
    // Node's own Host check answers with an empty body; host-header.ts answers in JSON instead.
    http: { requireHostHeader: false },
  });
  answerNodeRefusalsInJson(app.server);
  app.setValidatorCompiler(typeboxValidatorCompiler);
  app.setSerializerCompiler(checkedSerializerCompiler);
  const compat = options.compat ?? 'standard';
  installCompatMode(app, compat);
  const allowedMethods = new AllowedMethods();
  allowedMethods.track(app);
  const fastPath = options.memberCheckFastPath === true ? new MemberCheckFastPath() : undefined;
  fastPath?.track(app);
  installErrorHandling(app, (path) => allowedMethods.allowedFor(path));
  installJsonBodyParser(app);
  // First hook of every request (also unknown paths): the Host decides the issuer and the realm pin.
  app.addHook('onRequest', requireOneHost);
  if (options.allowedHosts !== undefined) app.addHook('onRequest', requireAllowedHost(options.allowedHosts));
  app.addHook('preValidation', refuseControlCharactersInQuery);

  const operations = await installOperations(app, options.store, Boolean(options.logger), nextRequestId, options.operations);
  const store = operations.store;
  const now = options.now ?? Date.now;
  const apiKeySecrets = new ApiKeySecrets(store, now);
  const portalLinkLifetimeSeconds = options.portalLinkLifetimeSeconds ?? DEFAULT_PORTAL_LINK_LIFETIME_SECONDS;
  const revocations = new RevocationList(store, now);
  const ctx: ServiceContext = {
    store,
    admin: new Admin(store, {
      apiKeySecrets,
      now,
      portalLinkLifetimeSeconds,
      txtLookup: options.txtLookup ?? dnsTxtLookup({ server: options.dnsServer }),
      onTokensRevoked: () => revocations.recheckNow(),
      allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    }),
    domain: options.domain ?? 'localhost',
    publicBaseUrl: options.publicBaseUrl,
    allowedHosts: options.allowedHosts,
    rateLimiter: new RateLimiter(options.rateLimit, now),
    verifiedTokens: new VerifiedTokenCache(),
    credentialThrottle: new CredentialThrottle(options.credentialThrottle, now),
    hashGate: new HashGate(options.hashGate),
    apiKeySecrets,
    revocations,
    now,
    upstreams: new UpstreamClients(now),
    compat,
  };
  await app.register(tokenRoutes, { ctx });
  await app.register(discoveryRoutes, { ctx });
  await app.register(oidcRoutes, { ctx });
  await app.register(organizationRoutes, { ctx });
  await app.register(membershipRoutes, { ctx });
  await app.register(domainRoutes, { ctx });
  await app.register(identityProviderRoutes, { ctx });
  await app.register(roleRoutes, { ctx });
  await app.register(memberRoleRoutes, { ctx });
  await app.register(userRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
  await app.register(eventRoutes, { ctx });
  await app.register(portalRoutes, { ctx });
  await app.register(authorizeRoutes, { ctx });
  await app.register(brokerRoutes, { ctx });
  await app.register(dashboardRoutes, { ctx });
  await app.register(transferRoutes, { ctx });
  await app.register(unsupportedRoutes);
  fastPath?.install(app, ctx, operations.observer);
  return app;
}
