/**
 * The events half of the store: the audit log, its retention, webhooks and the delivery outbox.
 * Each store exposes one as `store.events` (store/sqlite-events.ts, store/postgres-events.ts); the
 * events of changes are written by the store's own write methods, in the change's transaction.
 *
 * Delivery runs on these rules, which both implementations keep:
 * - an event of a realm with an enabled webhook gets an outbox row in its own transaction;
 * - {@link EventStore.fanOut} turns outbox rows into one pending send per matching webhook (enabled,
 *   created before the event) and removes the rows, in one transaction, so an event is handed out once;
 * - a webhook's sends are delivered by whoever holds its lease ({@link EventStore.leaseWebhooks}),
 *   one at a time in event order; a lease runs out by itself, so a crashed instance's webhooks are
 *   taken over (sends it had under way are sent again: at least once).
 */
import type { ChangeOrigin, NewEvent, StoredEvent } from '../events/event';
import type { SendState, WebhookRecord, WebhookSendRecord, WebhookUpdate } from '../events/webhook-record';

/** Filter and page of the audit log. */
export interface EventFilter {
  /** Event types or filters with `*` (src/api/events.ts); any may match. Absent: all types. */
  types?: readonly string[];
  /** Only events whose resource path starts with this. */
  resourcePathPrefix?: string;
  /** Only events whose actor's client id or user id is this. */
  actor?: string;
  /** Only events at or after this time (ms). */
  from?: number;
  /** Only events before this time (ms). */
  to?: number;
  first?: number;
  max?: number;
}

/** One send due for an attempt, with the event it delivers. */
export interface DueSend {
  send: WebhookSendRecord;
  event: StoredEvent;
}

/** The outcome of one delivery attempt. */
export interface AttemptResult {
  /** `delivered` on a 2xx; `pending` to try again at `nextAttemptTimestamp`; `failed` when retries are given up. */
  state: SendState;
  /** HTTP status, or null without an answer. */
  status: number | null;
  /** What went wrong, or null. */
  error: string | null;
  /** When the attempt was made (ms). */
  attemptedAt: number;
  /** When the next attempt is due (ms); ignored unless `pending`. */
  nextAttemptTimestamp: number;
}

/** Counts of the delivery pipeline (issue 32 reads them as metrics). */
export interface DeliveryCounts {
  /** Events not yet handed to webhooks. */
  outbox: number;
  /** Sends waiting for an attempt (first or again). */
  pending: number;
  /** Sends that got a 2xx. */
  delivered: number;
  /** Sends whose retries were given up. */
  failed: number;
}

/** The events half of the store. */
export interface EventStore {
  // Audit log ------------------------------------------------------------------------------------

  /** Records an event that comes with no change of stored data (a sign-in, a refused grant). */
  record(event: NewEvent): Promise<void>;
  /** A page of a realm's events matching the filter, newest first. */
  list(realm: string, filter: EventFilter): Promise<StoredEvent[]>;
  /** Days a realm keeps its events, or null for ever. */
  retentionDays(realm: string): Promise<number | null>;
  /**
   * Sets how long a realm keeps its events (null: for ever), recording the realm's change.
   * False when the realm does not exist.
   */
  setRetentionDays(realm: string, days: number | null, origin?: ChangeOrigin): Promise<boolean>;
  /** Every realm that keeps events for a limited time. */
  retentionSettings(): Promise<Array<{ realm: string; days: number }>>;
  /**
   * Deletes at most `limit` of a realm's events recorded before `before` (ms), oldest first, leaving
   * those still to be delivered (in the outbox or with a pending send). One short transaction, so
   * writes wait at most for one batch. Returns how many were deleted.
   */
  prune(realm: string, before: number, limit: number): Promise<number>;

  // Webhooks -------------------------------------------------------------------------------------

  /** Inserts a webhook, recording its creation. */
  createWebhook(webhook: WebhookRecord, origin?: ChangeOrigin): Promise<void>;
  /** One webhook of a realm, with its secret. */
  getWebhook(realm: string, id: string): Promise<WebhookRecord | undefined>;
  /** A page of a realm's webhooks, oldest first. */
  listWebhooks(realm: string, first: number, max: number): Promise<WebhookRecord[]>;
  /** How many webhooks a realm has. */
  countWebhooks(realm: string): Promise<number>;
  /** Changes the given fields, recording the change; undefined when there is no such webhook. */
  updateWebhook(realm: string, id: string, update: WebhookUpdate, origin?: ChangeOrigin): Promise<WebhookRecord | undefined>;
  /** Deletes a webhook and its sends, recording it. False when there was none. */
  deleteWebhook(realm: string, id: string, origin?: ChangeOrigin): Promise<boolean>;
  /** A page of a webhook's sends, newest first. */
  listSends(realm: string, webhookId: string, first: number, max: number): Promise<WebhookSendRecord[]>;
  /** One send of a webhook with its event. */
  getSend(realm: string, webhookId: string, sendId: string): Promise<DueSend | undefined>;
  /**
   * Makes a send of a webhook due again now (a new round of retries, same send id and event id).
   * False when there is no such send.
   */
  resend(realm: string, webhookId: string, sendId: string, now: number): Promise<boolean>;

  // Delivery -------------------------------------------------------------------------------------

  /**
   * Hands up to `limit` outbox events to the webhooks of their realms: one pending send (id from
   * `newSendId`, due at `now`) per enabled webhook created no later than the event whose filters
   * `matches`. Returns how many outbox rows were handled.
   */
  fanOut(limit: number, matches: (webhook: WebhookRecord, event: StoredEvent) => boolean, newSendId: () => string, now: number): Promise<number>;
  /**
   * Leases up to `limit` enabled webhooks that have a pending send due at `now` and no live lease
   * of another owner, to `owner` until `now + leaseMs`; returns them.
   */
  leaseWebhooks(owner: string, now: number, leaseMs: number, limit: number): Promise<WebhookRecord[]>;
  /** Extends `owner`'s lease of a webhook; false when it is no longer `owner`'s. */
  renewLease(webhookId: string, owner: string, until: number): Promise<boolean>;
  /** Gives up `owner`'s lease of a webhook. */
  releaseLease(webhookId: string, owner: string): Promise<void>;
  /** Gives up every lease `owner` holds (a restarted instance's leases of its previous run). */
  releaseLeasesOf(owner: string): Promise<void>;
  /** The webhook's first pending send in event order, when it is due at `now`. */
  nextDueSend(webhookId: string, now: number): Promise<DueSend | undefined>;
  /** Records an attempt's outcome on a send. */
  finishAttempt(sendId: string, result: AttemptResult): Promise<void>;
  /** Counts of the delivery pipeline. */
  deliveryCounts(): Promise<DeliveryCounts>;
  /** Events still to be delivered: outbox rows and pending sends (the metrics' outbox depth; two cheap counts). */
  outboxDepth(): Promise<number>;
  /**
   * Calls `listener` soon after this store (this process) records an event, so delivery starts
   * without waiting for its next poll. Returns a function that removes the listener.
   */
  onRecorded(listener: () => void): () => void;
}
