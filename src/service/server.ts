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
  /** Log requests (JSON lines on stdout). Default off. */
  logger?: boolean;
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
}

/** A running service. */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:8080`. */
  url: string;
  app: FastifyInstance;
  store: Store;
  /** Stops listening (finishing in-flight requests), then closes the store. */
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
      allowedHosts: options.allowedHosts,
      compat: options.compat,
      // Nothing adds hooks to this app after it is built (it listens at once), so the hottest
      // request may skip fastify's (member-check-fast-path.ts).
      memberCheckFastPath: true,
    });
    await app.listen({ host, port: options.port ?? 8080 });
  } catch (error) {
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
    close() {
      closing ??= (async () => {
        try {
          await app.close();
        } finally {
          await store.close();
        }
      })();
      return closing;
    },
  };
}
