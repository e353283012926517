/**
 * The management port (`orgadmin serve --management-port`): health probes and metrics on a port of
 * their own, as Keycloak's management interface, so that they can be reached by the orchestrator
 * and the scraper without being exposed with the API (and the API's port carries neither).
 */
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { installErrorHandling } from '../errors';
import { healthRoutes, type Readiness } from './health';
import type { OperationsMetrics } from './metrics';
import { metricsRoute } from './metrics-route';

/** A listening management server. */
export interface ManagementServer {
  /** `http://HOST:PORT`. */
  url: string;
  /** Stops listening. */
  close(): Promise<void>;
}

/** Starts the management server on `host`:`port` (0: a free port). */
export async function startManagementServer(options: {
  host: string;
  port: number;
  readiness: Readiness;
  metrics?: OperationsMetrics;
  /** The service's logger (errors only; probes are not logged). */
  logger?: FastifyBaseLogger;
}): Promise<ManagementServer> {
  const app = Fastify({ loggerInstance: options.logger, logController: new LogController({ disableRequestLogging: true }) });
  installErrorHandling(app);
  await app.register(healthRoutes, { readiness: options.readiness });
  if (options.metrics !== undefined) await app.register(metricsRoute, { metrics: options.metrics });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}
