/**
 * Health probes, in the shape Keycloak's (MicroProfile Health) probes answer:
 * `{"status":"UP"|"DOWN","checks":[{"name","status","data"?}]}`.
 *
 * - `GET /health/live`: the process answers; 200 while it runs (a live but unready instance must
 *   not be restarted for a database that is down).
 * - `GET /health/ready`: 200 when the store answers within the bound and every migration of this
 *   build is applied, 503 otherwise, and 503 from the moment a graceful shutdown starts, so that a
 *   load balancer stops sending new requests while the accepted ones are answered.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Store } from '../store/store';

/** How long readiness waits for the store by default (ms). */
export const DEFAULT_READY_TIMEOUT_MS = 2000;

/** Path of the liveness probe. */
export const LIVE_PATH = '/health/live';
/** Path of the readiness probe. */
export const READY_PATH = '/health/ready';

const HealthCheckSchema = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
  data: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
});

/** The body of both probes. */
export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('UP'), Type.Literal('DOWN')]),
  checks: Type.Array(HealthCheckSchema),
});
/** A probe's answer. */
export type Health = Static<typeof HealthSchema>;
type HealthCheck = Static<typeof HealthCheckSchema>;

/** Answers readiness for one service (see the module comment). */
export class Readiness {
  private shuttingDown = false;

  /** @param store the store asked; @param timeoutMs how long it may take to answer */
  constructor(
    private readonly store: Store,
    private readonly timeoutMs = DEFAULT_READY_TIMEOUT_MS,
  ) {}

  /** From now on the instance is not ready (a graceful shutdown began). */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  /** Whether a graceful shutdown began. */
  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Asks the store (bounded by the timeout) and reports each check. */
  async check(): Promise<Health> {
    const checks: HealthCheck[] = [];
    if (this.shuttingDown) checks.push({ name: 'shutdown', status: 'DOWN', data: { reason: 'the service is shutting down' } });
    checks.push(...(await this.storeChecks()));
    return { status: checks.every((check) => check.status === 'UP') ? 'UP' : 'DOWN', checks };
  }

  /** The store's two checks: it answers in time, and its schema is current. */
  private async storeChecks(): Promise<HealthCheck[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    const started = performance.now();
    try {
      const probe = this.store.pendingMigrations();
      // A store that answers after the timeout (or fails then) is no longer waited for.
      probe.catch(() => undefined);
      const pending = await Promise.race([probe, timeout]);
      if (pending === 'timeout') {
        return [{ name: 'store', status: 'DOWN', data: { reason: `no answer within ${this.timeoutMs} ms` } }];
      }
      const storeCheck: HealthCheck = { name: 'store', status: 'UP', data: { responseTimeMs: Math.round((performance.now() - started) * 100) / 100 } };
      const migrations: HealthCheck =
        pending.length === 0
          ? { name: 'migrations', status: 'UP' }
          : { name: 'migrations', status: 'DOWN', data: { pending: pending.map((version) => String(version).padStart(3, '0')).join(',') } };
      return [storeCheck, migrations];
    } catch (error) {
      // Only the error's code: a message may name the database's host or user.
      const code = (error as { code?: unknown } | null)?.code;
      return [{ name: 'store', status: 'DOWN', data: { reason: typeof code === 'string' ? code : 'the store failed' } }];
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Registers `GET /health/live` and `GET /health/ready` on `app`. */
export async function healthRoutes(app: FastifyInstance, opts: { readiness: Readiness }): Promise<void> {
  const schema = { response: { 200: HealthSchema, 503: HealthSchema } };
  app.get(LIVE_PATH, { schema }, async (): Promise<Health> => ({ status: 'UP', checks: [] }));
  app.get(READY_PATH, { schema }, async (_request, reply) => {
    const health = await opts.readiness.check();
    reply.header('cache-control', 'no-store');
    return reply.status(health.status === 'UP' ? 200 : 503).send(health);
  });
}
