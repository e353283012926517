/**
 * Operations of a running service, put together for `buildApp`: the request log line and metrics
 * of every request (request-observer.ts), store call timing (store-metrics.ts), the health probes
 * (health.ts) and the metrics exposition (metrics-route.ts) unless a management server serves them.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store';
import { healthRoutes, Readiness } from './health';
import type { OperationsMetrics } from './metrics';
import { metricsRoute } from './metrics-route';
import { RequestObserver } from './request-observer';
import { timedStore } from './store-metrics';

export { OperationsMetrics, type WebhookDeliveryResult } from './metrics';
export { Readiness, DEFAULT_READY_TIMEOUT_MS, LIVE_PATH, READY_PATH } from './health';
export { METRICS_PATH } from './metrics-route';
export { closeGracefully, DEFAULT_SHUTDOWN_TIMEOUT_MS, type ShutdownOutcome } from './shutdown';
export { startManagementServer, type ManagementServer } from './management-server';
export { RequestObserver, requestIdGenerator, REQUEST_LINE_MESSAGE } from './request-observer';

/** Options of the operations part of `buildApp` (`AppOptions.operations`). */
export interface OperationsOptions {
  /** Count requests, tokens, throttled requests and store calls into these metrics; none when undefined. */
  metrics?: OperationsMetrics;
  /**
   * Serve `/health/live`, `/health/ready` and (with metrics) `/metrics` on the app (default true);
   * false when a management server (management-server.ts) serves them instead.
   */
  endpoints?: boolean;
  /** How long readiness waits for the store (ms, default `DEFAULT_READY_TIMEOUT_MS`). */
  readyTimeoutMs?: number;
}

/** What {@link installOperations} hands back to `buildApp`. */
export interface InstalledOperations {
  /** The store the app should use: timed when there are metrics. */
  store: Store;
  /** The readiness of this app (a graceful shutdown marks it). */
  readiness: Readiness;
  /** Logs and counts answered requests (the fast path reports to it too). */
  observer: RequestObserver;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's operations (health, metrics, request log), set by `buildApp`. */
    operations: InstalledOperations;
  }
}

/**
 * Installs the request observer and the endpoints on `app` and decorates it with `operations`.
 * `logged` says whether the app logs requests; `nextRequestId` is the app's `genReqId`.
 */
export async function installOperations(
  app: FastifyInstance,
  store: Store,
  logged: boolean,
  nextRequestId: () => string,
  options: OperationsOptions = {},
): Promise<InstalledOperations> {
  const metrics = options.metrics;
  const observedStore = metrics === undefined ? store : timedStore(store, metrics);
  const readiness = new Readiness(observedStore, options.readyTimeoutMs);
  const observer = new RequestObserver(logged ? app.log : undefined, metrics, nextRequestId);
  observer.install(app);
  if (options.endpoints !== false) {
    await app.register(healthRoutes, { readiness });
    if (metrics !== undefined) await app.register(metricsRoute, { metrics });
  }
  const installed = { store: observedStore, readiness, observer };
  app.decorate('operations', installed);
  return installed;
}
