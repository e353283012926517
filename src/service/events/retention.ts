/**
 * Pruning of old events: every interval, each realm that keeps its events for a limited time loses
 * those older than that, in small batches (admin/audit-log.ts `prune`), so writes never wait for a
 * long delete. Events still to be delivered to a webhook are kept until they are.
 */
import type { AuditLog } from '../admin/audit-log';
import type { EventStore } from '../store/event-store';

/** How often events are pruned by default: hourly. */
export const DEFAULT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** The background pruning of one service instance (several instances may prune at once: deletes skip each other's rows). */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly auditLog: AuditLog,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Prunes now, then every `intervalMs`. */
  start(intervalMs = DEFAULT_PRUNE_INTERVAL_MS): void {
    const tick = (): void => {
      this.running ??= this.runOnce()
        .catch((error: unknown) => {
          this.onError(error);
          return 0;
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
    tick();
  }

  /** Stops; waits for a prune under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Prunes every realm with a retention once; returns how many events were deleted. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (const { realm } of await this.events.retentionSettings()) total += await this.auditLog.prune(realm);
    return total;
  }
}
