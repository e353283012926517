/** `GET /metrics`: the Prometheus text exposition of the service's metrics (metrics.ts). */
import type { FastifyInstance } from 'fastify';
import type { OperationsMetrics } from './metrics';

/** Path of the metrics exposition. */
export const METRICS_PATH = '/metrics';

/** Registers `GET /metrics` on `app`. */
export async function metricsRoute(app: FastifyInstance, opts: { metrics: OperationsMetrics }): Promise<void> {
  app.get(METRICS_PATH, async (_request, reply) => {
    const { contentType, body } = await opts.metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}
