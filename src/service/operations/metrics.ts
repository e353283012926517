/**
 * The service's Prometheus metrics (prom-client), one registry per app so that two apps in one
 * process never share counts. Labels are bounded sets chosen by the service: route templates
 * (`/realms/:realm/orgs/:orgId`), methods, statuses, grant types, store operations, delivery
 * results; never an id, a name, a realm or a secret, which would both leak and grow without end.
 *
 * The webhook metrics (issue 30) are declared here so that their names and labels are fixed in one
 * place; webhook delivery fills them through {@link OperationsMetrics.observeWebhookOutbox} and
 * {@link OperationsMetrics.webhookDelivered}.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prefix of every metric the service exports. */
export const METRIC_PREFIX = 'orgadmin_';

/** Grant types the token endpoint knows; anything else is counted as `other` (the label stays bounded). */
const GRANTS = new Set(['client_credentials', 'password', 'authorization_code', 'refresh_token']);

/** Outcomes of one webhook delivery attempt. */
export type WebhookDeliveryResult = 'delivered' | 'failed' | 'retried';

/**
 * Request latency buckets in seconds: from the fast path's sub-millisecond checks to the slow
 * password hashes of a token request.
 */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Store call latency buckets in seconds. */
const STORE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** The service's metrics and the registry that exports them. See the module comment. */
export class OperationsMetrics {
  /** The registry {@link OperationsMetrics.scrape} renders. */
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly tokensIssued: Counter<'grant'>;
  private readonly throttled: Counter<'route'>;
  private readonly storeDuration: Histogram<'operation'>;
  private readonly webhookDeliveries: Counter<'result'>;
  private webhookOutboxDepth: (() => Promise<number> | number) | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.requestDuration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from receiving a request to its answer, by route template, method and status; _count is the number of requests.',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.tokensIssued = new Counter({
      name: `${METRIC_PREFIX}tokens_issued_total`,
      help: 'Access tokens issued by the token endpoint, by grant type.',
      labelNames: ['grant'],
      registers,
    });
    this.throttled = new Counter({
      name: `${METRIC_PREFIX}throttled_requests_total`,
      help: 'Requests refused with 429 (the rate limit or the failed-credential throttle), by route template.',
      labelNames: ['route'],
      registers,
    });
    this.storeDuration = new Histogram({
      name: `${METRIC_PREFIX}store_query_duration_seconds`,
      help: 'Time of each store call (one query or transaction, waiting for a connection included), by store operation.',
      labelNames: ['operation'],
      buckets: STORE_BUCKETS,
      registers,
    });
    const metrics = this;
    new Gauge({
      name: `${METRIC_PREFIX}webhook_outbox_depth`,
      help: 'Webhook events waiting in the outbox for delivery (0 until webhook delivery reports it).',
      registers,
      async collect() {
        this.set(metrics.webhookOutboxDepth === undefined ? 0 : await metrics.webhookOutboxDepth());
      },
    });
    this.webhookDeliveries = new Counter({
      name: `${METRIC_PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts, by result (delivered, failed, retried).',
      labelNames: ['result'],
      registers,
    });
  }

  /** Counts one answered request (`route` is the route template, undefined when no route matched). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const template = route ?? 'unmatched';
    this.requestDuration.observe({ method, route: template, status: String(status) }, seconds);
    if (status === 429) this.throttled.inc({ route: template });
  }

  /** Counts one token issued with `grant` (the request's `grant_type`). */
  tokenIssued(grant: unknown): void {
    this.tokensIssued.inc({ grant: typeof grant === 'string' && GRANTS.has(grant) ? grant : 'other' });
  }

  /** Records how long one store call took. */
  observeStoreCall(operation: string, seconds: number): void {
    this.storeDuration.observe({ operation }, seconds);
  }

  /**
   * The hook of webhook delivery (issue 30): `depth` tells how many events wait in the outbox; it
   * is asked at each scrape (keep it one cheap query).
   */
  observeWebhookOutbox(depth: () => Promise<number> | number): void {
    this.webhookOutboxDepth = depth;
  }

  /** The hook of webhook delivery (issue 30): counts one delivery attempt by its result. */
  webhookDelivered(result: WebhookDeliveryResult): void {
    this.webhookDeliveries.inc({ result });
  }

  /** The exposition (Prometheus text format) and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
