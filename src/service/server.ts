/**
 * Runs the service as a process: opens the SQLite store, builds the app and listens. Signal
 * handling belongs to the caller (the `orgadmin serve` command).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { CompatMode } from './compat';
import type { RateLimitOptions } from './rate-limit';
import { closeGracefully, OperationsMetrics, startManagementServer, type ManagementServer, type ShutdownOutcome } from './operations';
import { openStore } from './store/open-store';
import type { Store } from './store/store';
import { hostname } from 'node:os';
import { AuditLog } from './admin/audit-log';
import { httpDeliver } from './events/delivery';
import { EventPruner } from './events/retention';
import type { RetryPolicy } from './events/retry-policy';
import { WebhookDispatcher } from './events/webhook-dispatcher';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /**
   * Where the data lives: a SQLite file (created when missing), or a PostgreSQL URL
   * (`postgres://…`) when one machine is not enough.
   */
  dataFile: string;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** The service's DNS domain. Default `localhost`. */
  domain?: string;
  /** Rate limit per realm + caller (an API key, or an end user; auth/guards.ts rateLimitKey); off when undefined. */
  rateLimit?: RateLimitOptions;
  /**
   * Log requests: one JSON line per answered request plus errors (operations/request-observer.ts),
   * on stdout, or with fastify's logger options (`level`, `stream`). Default off.
   */
  logger?: boolean | { level?: string; stream?: { write(line: string): void } };
  /** Collect Prometheus metrics and serve them at `/metrics` (operations/metrics.ts). Default off. */
  metrics?: boolean;
  /**
   * Serve `/health/*` and `/metrics` on this port of `host` instead of the API's port (0: a free
   * one); default: on the API's port.
   */
  managementPort?: number;
  /** Bound of a graceful shutdown (ms): after it, open connections are cut (operations/shutdown.ts). Default 10 s. */
  shutdownTimeoutMs?: number;
  /**
   * The address clients reach the service at (e.g. `https://orgs.example.com` behind a proxy that
   * terminates TLS): the start of every URL the service writes (`iss`, `Location`, discovery,
   * portal links). Default: each request's own protocol and Host.
   */
  publicBaseUrl?: string;
  /** The hosts requests may name in `Host` (see `AppOptions.allowedHosts`); default any. */
  allowedHosts?: readonly string[];
  /** `hosted` reproduces the real hosted service's quirks (`orgadmin serve --compat hosted`); default `standard`. */
  compat?: CompatMode;
  /** Let webhooks reach loopback, link-local and private addresses (`serve --allow-private-webhooks`). Default off. */
  allowPrivateWebhooks?: boolean;
  /**
   * This instance's name in webhook delivery leases (default: the host name). Instances sharing a
   * database need different names; an instance restarted under its name resumes its deliveries at once.
   */
  instanceName?: string;
  /** Backoff of failed webhook sends (default `DEFAULT_RETRY_POLICY` of events/retry-policy.ts). */
  webhookRetry?: RetryPolicy;
  /** How often the delivery worker looks for work it was not told about (ms, default 1000). */
  webhookPollMs?: number;
  /** How often old events are pruned (ms, default hourly). */
  pruneIntervalMs?: number;
  /** The DNS server domain verification asks, `HOST:PORT` (`orgadmin serve --dns-server`); default the system's resolvers. */
  dnsServer?: string;
}

/** A running service. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:8080`. */
  url: string;
  app: FastifyInstance;
  store: Store;
  /** This instance's webhook delivery worker; `metrics()` gives the outbox depth and delivery results. */
  webhooks: WebhookDispatcher;
  /** The management server's base address, when `managementPort` was given. */
  managementUrl?: string;
  /** The metrics, when `metrics` is on. */
  metrics?: OperationsMetrics;
  /**
   * Shuts down gracefully (operations/shutdown.ts): readiness goes down, no new connections, the
   * accepted requests are answered within `shutdownTimeoutMs`; then webhook delivery and event
   * pruning stop (a send under way is finished or, cut, sent again by the next start), the store is
   * closed and the log flushed. Idempotent.
   */
  close(): Promise<ShutdownOutcome>;
}

/** Opens the store, builds the app and listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const store = await openStore(options.dataFile);
  const metrics = options.metrics === true ? new OperationsMetrics() : undefined;
  const separateManagement = options.managementPort !== undefined;
  let app: FastifyInstance | undefined;
  let management: ManagementServer | undefined;
  try {
    app = await buildApp({
      store,
      domain: options.domain,
      rateLimit: options.rateLimit,
      logger: options.logger ?? false,
      publicBaseUrl: options.publicBaseUrl,
      allowedHosts: options.allowedHosts,
      compat: options.compat,
      dnsServer: options.dnsServer,
      // Nothing adds hooks to this app after it is built (it listens at once), so the hottest
      // request may skip fastify's (member-check-fast-path.ts).
      memberCheckFastPath: true,
      allowPrivateWebhooks: options.allowPrivateWebhooks,
      operations: { metrics, endpoints: !separateManagement },
    });
    await app.listen({ host, port: options.port ?? 8080 });
    if (options.managementPort !== undefined) {
      management = await startManagementServer({
        host,
        port: options.managementPort,
        readiness: app.operations.readiness,
        metrics,
        logger: options.logger ? app.log : undefined,
      });
    }
  } catch (error) {
    await app?.close();
    await store.close();
    throw error;
  }
  const listening = app;
  const delivery = httpDeliver(options.allowPrivateWebhooks ?? false);
  const webhooks = new WebhookDispatcher(store.events, {
    owner: options.instanceName ?? hostname(),
    deliver: delivery.deliver,
    retry: options.webhookRetry,
    pollMs: options.webhookPollMs,
    onError: (error) => listening.log.error({ err: error }, 'webhook delivery run failed'),
    onAttempt: (result) => metrics?.webhookDelivered(result),
  });
  // The outbox depth, asked at each scrape: one count of the outbox table.
  metrics?.observeWebhookOutbox(() => store.events.outboxDepth());
  const pruner = new EventPruner(store.events, new AuditLog(store), (error) => listening.log.error({ err: error }, 'event pruning failed'));
  try {
    await webhooks.start();
    pruner.start(options.pruneIntervalMs);
  } catch (error) {
    await listening.close();
    await management?.close();
    await store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8080);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<ShutdownOutcome> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    app: listening,
    store,
    webhooks,
    managementUrl: management?.url,
    metrics,
    close() {
      closing ??= (async () => {
        // Not ready from now on, so that the load balancer sends new requests elsewhere.
        listening.operations.readiness.markShuttingDown();
        try {
          return await closeGracefully(listening, options.shutdownTimeoutMs);
        } finally {
          await Promise.all([webhooks.stop(), pruner.stop()]);
          await delivery.close();
          await management?.close();
          await store.close();
          (listening.log as { flush?: () => void }).flush?.();
        }
      })();
      return closing;
    },
  };
}
