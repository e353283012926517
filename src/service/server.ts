/**
 * Runs the service as a process: opens the SQLite store, builds the app and listens. Signal
 * handling belongs to the caller (the `orgadmin serve` command).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { CompatMode } from './compat';
import type { RateLimitOptions } from './rate-limit';
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
  /** Rate limit per realm + client (per realm + user for end users of the public client); off when undefined. */
  rateLimit?: RateLimitOptions;
  /** Log requests (JSON lines on stdout). Default off. */
  logger?: boolean;
  /**
   * The address clients reach the service at (e.g. `https://orgs.example.com` behind a proxy that
   * terminates TLS): the start of every URL the service writes (`iss`, `Location`, discovery,
   * portal links). Default: each request's own protocol and Host.
   */
  publicBaseUrl?: string;
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
}

/** A running service. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:8080`. */
  url: string;
  app: FastifyInstance;
  store: Store;
  /** This instance's webhook delivery worker; `metrics()` gives the outbox depth and delivery results. */
  webhooks: WebhookDispatcher;
  /** Stops listening (finishing in-flight requests) and delivering, then closes the store. */
  close(): Promise<void>;
}

/** Opens the store, builds the app and listens. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const store = await openStore(options.dataFile);
  let app: FastifyInstance;
  try {
    app = await buildApp({
      store,
      domain: options.domain,
      rateLimit: options.rateLimit,
      logger: options.logger ?? false,
      publicBaseUrl: options.publicBaseUrl,
      compat: options.compat,
      // Nothing adds hooks to this app after it is built (it listens at once), so the hottest
      // request may skip fastify's (member-check-fast-path.ts).
      memberCheckFastPath: true,
      allowPrivateWebhooks: options.allowPrivateWebhooks,
    });
    await app.listen({ host, port: options.port ?? 8080 });
  } catch (error) {
    await store.close();
    throw error;
  }
  const delivery = httpDeliver(options.allowPrivateWebhooks ?? false);
  const webhooks = new WebhookDispatcher(store.events, {
    owner: options.instanceName ?? hostname(),
    deliver: delivery.deliver,
    retry: options.webhookRetry,
    pollMs: options.webhookPollMs,
    onError: (error) => app.log.error({ err: error }, 'webhook delivery run failed'),
  });
  const pruner = new EventPruner(store.events, new AuditLog(store), (error) => app.log.error({ err: error }, 'event pruning failed'));
  try {
    await webhooks.start();
    pruner.start(options.pruneIntervalMs);
  } catch (error) {
    await app.close();
    await store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 8080);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    app,
    store,
    webhooks,
    close() {
      closing ??= (async () => {
        try {
          await app.close();
          await Promise.all([webhooks.stop(), pruner.stop()]);
          await delivery.close();
        } finally {
          await store.close();
        }
      })();
      return closing;
    },
  };
}
