/**
 * The webhook delivery worker of one service instance. Each run:
 * 1. hands outbox events to the matching webhooks (one send per webhook and event);
 * 2. leases webhooks with a due send (one instance per webhook at a time) and delivers each one's
 *    sends in event order, one at a time: a failed attempt is scheduled again by the retry policy and
 *    holds back that webhook's later sends, so a receiver sees one resource's changes in order;
 * 3. gives the leases back.
 *
 * Runs start when this process records an event (the store's signal), and otherwise every poll
 * interval (events recorded by other instances, retries coming due). A crash loses nothing: the
 * outbox and the sends are rows, a lease runs out by itself, and a send under way when the
 * process died is sent again (at least once; the payload keeps its `id` and `uid`).
 */
import { randomUUID } from 'node:crypto';
import { eventTypeMatches } from '../../api';
import type { DeliveryCounts, EventStore } from '../store/event-store';
import type { Deliver } from './delivery';
import { eventToWire } from './event';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, type RetryPolicy } from './retry-policy';
import type { WebhookRecord } from './webhook-record';

/** Settings of a {@link WebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** This instance's name in leases; a restart under the same name takes its old leases back at once. */
  owner: string;
  /** Sends payloads (delivery.ts `httpDeliver`). */
  deliver: Deliver;
  /** The clock, ms since the epoch. @default Date.now */
  now?: () => number;
  /** @default {@link DEFAULT_RETRY_POLICY} */
  retry?: RetryPolicy;
  /** How long a lease lasts without renewal (ms). @default 60000 */
  leaseMs?: number;
  /** How often to look for work without being told (ms). @default 1000 */
  pollMs?: number;
  /** Most webhooks delivered to at once. @default 8 */
  concurrency?: number;
  /** Most outbox events handed out per transaction. @default 200 */
  fanOutBatch?: number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Told about a run that failed (the database was unreachable); the next run tries again. @default ignore */
  onError?: (error: unknown) => void;
  /**
   * Told about each attempt's result once it is recorded: `delivered` (a 2xx), `retried` (failed,
   * tried again later), `failed` (failed, retries given up). The metrics count them. @default ignore
   */
  onAttempt?: (result: 'delivered' | 'retried' | 'failed') => void;
}

/** What this instance's worker did since it started (issue 32 exports these as metrics). */
export interface DispatcherStats {
  /** Attempts answered with a 2xx. */
  delivered: number;
  /** Attempts that failed (another status, no answer, refused address). */
  failedAttempts: number;
  /** Sends given up after their retry period. */
  givenUp: number;
}

/** The outcome of one {@link WebhookDispatcher.runOnce}. */
export interface RunResult {
  /** Outbox events handed to webhooks. */
  handedOut: number;
  /** Delivery attempts made. */
  attempts: number;
}

/** The webhook delivery worker of one instance. */
export class WebhookDispatcher {
  private readonly now: () => number;
  private readonly retry: RetryPolicy;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly fanOutBatch: number;
  private readonly random: () => number;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly counters: DispatcherStats = { delivered: 0, failedAttempts: 0, givenUp: 0 };

  constructor(
    private readonly store: EventStore,
    private readonly options: WebhookDispatcherOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.concurrency = options.concurrency ?? 8;
    this.fanOutBatch = options.fanOutBatch ?? 200;
    this.random = options.random ?? Math.random;
  }

  /** Starts working in the background: takes back this owner's old leases, then runs on every signal and poll. */
  async start(): Promise<void> {
    await this.store.releaseLeasesOf(this.options.owner);
    this.unsubscribe = this.store.onRecorded(() => this.wake());
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops: no new runs; waits for the run under way (its attempts finish and are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Asks for a run now (one more after the current one, when one is under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.runOnce();
        } catch (error) {
          this.options.onError?.(error);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Waits until no run is under way (tests: after `wake`, the work it started is done). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** One run: hand out the outbox, deliver due sends of up to `concurrency` webhooks. */
  async runOnce(): Promise<RunResult> {
    let handedOut = 0;
    for (;;) {
      const handled = await this.store.fanOut(this.fanOutBatch, (webhook, event) => eventTypeMatches(webhook.eventTypes, event.type), randomUUID, this.now());
      handedOut += handled;
      if (handled < this.fanOutBatch) break;
    }
    const webhooks = await this.store.leaseWebhooks(this.options.owner, this.now(), this.leaseMs, this.concurrency);
    const attempts = await Promise.all(webhooks.map((webhook) => this.deliverTo(webhook)));
    return { handedOut, attempts: attempts.reduce((sum, n) => sum + n, 0) };
  }

  /** Delivers a leased webhook's due sends in order until one fails or none is due; returns the attempts made. */
  private async deliverTo(webhook: WebhookRecord): Promise<number> {
    let attempts = 0;
    let leasedUntil = this.now() + this.leaseMs;
    try {
      while (!this.stopped) {
        // Renew before the lease could run out during the next attempt (whose timeout is far shorter).
        if (leasedUntil - this.now() < this.leaseMs / 2) {
          leasedUntil = this.now() + this.leaseMs;
          if (!(await this.store.renewLease(webhook.id, this.options.owner, leasedUntil))) break;
        }
        const due = await this.store.nextDueSend(webhook.id, this.now());
        if (!due) break;
        const body = JSON.stringify(eventToWire(due.event, due.send.id));
        const answer = await this.options.deliver(webhook.url, body, webhook.secret);
        attempts += 1;
        const attemptedAt = this.now();
        if ('status' in answer && answer.status >= 200 && answer.status < 300) {
          this.counters.delivered += 1;
          await this.store.finishAttempt(due.send.id, { state: 'delivered', status: answer.status, error: null, attemptedAt, nextAttemptTimestamp: attemptedAt });
          this.options.onAttempt?.('delivered');
          continue;
        }
        this.counters.failedAttempts += 1;
        const status = 'status' in answer ? answer.status : null;
        const error = 'error' in answer ? answer.error : null;
        const firstAttemptAt = due.send.firstAttemptTimestamp ?? attemptedAt;
        // The backoff's step: a resend's first failure waits the initial interval again.
        const roundAttempts = due.send.firstAttemptTimestamp === null ? 1 : due.send.attempts + 1;
        const next = nextAttemptAt(this.retry, roundAttempts, firstAttemptAt, attemptedAt, this.random());
        if (next === undefined) {
          this.counters.givenUp += 1;
          await this.store.finishAttempt(due.send.id, { state: 'failed', status, error, attemptedAt, nextAttemptTimestamp: attemptedAt });
          this.options.onAttempt?.('failed');
          continue;
        }
        await this.store.finishAttempt(due.send.id, { state: 'pending', status, error, attemptedAt, nextAttemptTimestamp: next });
        this.options.onAttempt?.('retried');
        // This webhook's later sends wait for this one: events arrive in order.
        break;
      }
    } finally {
      await this.store.releaseLease(webhook.id, this.options.owner);
    }
    return attempts;
  }

  /** What this worker did since it started. */
  stats(): DispatcherStats {
    return { ...this.counters };
  }

  /** The delivery pipeline's counts (all instances) with this worker's own. */
  async metrics(): Promise<DeliveryCounts & { worker: DispatcherStats }> {
    return { ...(await this.store.deliveryCounts()), worker: this.stats() };
  }
}
