/**
 * One place that sees every answered request: it writes the request's one log line and counts it
 * in the metrics. fastify's own request logging is off (`disableRequestLogging`): it writes two
 * lines per request (incoming, completed); the service writes one, at the answer:
 *
 * `{"level":30,"time":…,"pid":…,"hostname":…,"reqId":"…","req":{"method","url","remoteAddress"},"res":{"statusCode"},"responseTime":…,"msg":"request completed"}`
 *
 * (`url` redacted by request-log.ts). The membership check's fast path (member-check-fast-path.ts)
 * answers outside fastify and reports through {@link RequestObserver.fastPathAnswered}, so its
 * line and its counts are the same as fastify's. Probes and scrapes (`/health/*`, `/metrics`) are
 * logged at debug level, so that an orchestrator polling them does not fill the log.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { OperationsMetrics } from './metrics';

/** The log message of a request's line. */
export const REQUEST_LINE_MESSAGE = 'request completed';

/** Route templates whose requests are logged at debug level (see the module comment). */
const QUIET_ROUTES = new Set(['/health/live', '/health/ready', '/metrics']);

/**
 * A request id generator for fastify's `genReqId` (and the fast path): a random prefix per process
 * and a counter, so ids of several instances behind one load balancer do not collide.
 */
export function requestIdGenerator(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => {
    counter += 1;
    return `${prefix}-${counter.toString(36)}`;
  };
}

/** See the module comment. */
export class RequestObserver {
  /**
   * @param log the app's logger, or undefined when requests are not logged
   * @param metrics where requests are counted, or undefined without metrics
   * @param nextRequestId the id generator fastify uses (`genReqId`), for the fast path's requests
   */
  constructor(
    private readonly log: FastifyBaseLogger | undefined,
    private readonly metrics: OperationsMetrics | undefined,
    readonly nextRequestId: () => string,
  ) {}

  /** Whether there is anything to observe (otherwise no hook is installed). */
  get active(): boolean {
    return this.log !== undefined || this.metrics !== undefined;
  }

  /** Installs the hook that logs and counts each request fastify answers. */
  install(app: FastifyInstance): void {
    if (!this.active) return;
    const { log, metrics } = this;
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url;
      const responseTime = reply.elapsedTime;
      if (log !== undefined) {
        const fields = { req: request, res: reply, responseTime };
        if (route !== undefined && QUIET_ROUTES.has(route)) request.log.debug(fields, REQUEST_LINE_MESSAGE);
        else request.log.info(fields, REQUEST_LINE_MESSAGE);
      }
      if (metrics !== undefined) {
        metrics.observeRequest(request.method, route, reply.statusCode, responseTime / 1000);
        if (reply.statusCode === 200 && route !== undefined && route.endsWith('/protocol/openid-connect/token')) {
          metrics.tokenIssued((request.body as { grant_type?: unknown } | undefined)?.grant_type);
        }
      }
      done();
    });
  }

  /**
   * Reports a request the fast path answered (`route`: its route template) `startedMs`
   * (`performance.now()`) ago: the same line and counts as {@link RequestObserver.install}'s hook.
   */
  fastPathAnswered(request: IncomingMessage, route: string, status: number, startedMs: number): void {
    const responseTime = performance.now() - startedMs;
    this.log?.info(
      {
        reqId: this.nextRequestId(),
        req: { method: request.method, url: request.url, ip: request.socket.remoteAddress },
        res: { statusCode: status },
        responseTime,
      },
      REQUEST_LINE_MESSAGE,
    );
    this.metrics?.observeRequest(request.method ?? 'GET', route, status, responseTime / 1000);
  }
}
