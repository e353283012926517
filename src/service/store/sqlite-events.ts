/**
 * {@link EventStore} on the SQLite store's database, and {@link writeSqliteEvent}, which the SQLite
 * store's write methods call inside their transactions. better-sqlite3 is synchronous: every
 * method here is one transaction that runs to its end before the event loop moves on.
 */
import type Database from 'better-sqlite3';
import { realmChange, webhookChange as webhookChangeOf, webhookDeleted as webhookDeletedOf } from '../events/changes';
import { adminEvent, UNKNOWN_ORIGIN, type ChangeOrigin, type NewEvent, type StoredEvent } from '../events/event';
import type { WebhookRecord, WebhookSendRecord, WebhookUpdate } from '../events/webhook-record';
import { EVENT_COLUMNS, eventFromRow, eventValues, sendFromRow, webhookFromRow } from './event-rows';
import type { AttemptResult, DeliveryCounts, DueSend, EventFilter, EventStore } from './event-store';
import { RecordedSignal } from './recorded-signal';
import { JSON_AS_TEXT, rowReaders } from './rows';

type Row = Record<string, unknown>;
const { realmFromRow } = rowReaders(JSON_AS_TEXT);
/** The store's prepared-statement cache. */
export type StatementOf = (sql: string) => Database.Statement;

/**
 * Writes `event` (and its outbox row when the realm has an enabled webhook). Call it inside the
 * transaction of the change the event describes; returns the event's seq.
 */
export function writeSqliteEvent(statement: StatementOf, event: NewEvent): number {
  const placeholders = eventValues(event).map(() => '?').join(', ');
  const seq = Number(statement(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${placeholders})`).run(...eventValues(event)).lastInsertRowid);
  statement('INSERT INTO event_outbox (seq) SELECT ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE realm = ? AND enabled = 1)').run(seq, event.realm);
  return seq;
}

const SEND_COLUMNS = 's.*, e.id AS event_id';

/** The events half of the SQLite store. */
export class SqliteEvents implements EventStore {
  /** Tells this process's delivery worker that events were recorded. */
  readonly signal = new RecordedSignal();

  constructor(
    private readonly db: Database.Database,
    private readonly statement: StatementOf,
    private readonly clock: () => number,
  ) {}

  /** Writes an event in the running transaction and signals delivery (the store's write methods use this). */
  write(event: NewEvent): void {
    writeSqliteEvent(this.statement, event);
    this.signal.notify();
  }

  async record(event: NewEvent): Promise<void> {
    this.db.transaction(() => this.write(event)).immediate();
  }

  async list(realm: string, filter: EventFilter): Promise<StoredEvent[]> {
    const where = ['realm = ?'];
    const values: unknown[] = [realm];
    if (filter.types !== undefined && filter.types.length > 0) {
      // Filters hold only [A-Za-z0-9_.*-] (src/api/events.ts), so GLOB reads `*` as the wildcard and nothing else.
      where.push(`(${filter.types.map(() => 'type GLOB ?').join(' OR ')})`);
      values.push(...filter.types);
    }
    if (filter.resourcePathPrefix !== undefined && filter.resourcePathPrefix !== '') {
      where.push('substr(resource_path, 1, length(?)) = ?');
      values.push(filter.resourcePathPrefix, filter.resourcePathPrefix);
    }
    if (filter.actor !== undefined) {
      where.push('(auth_client_id = ? OR auth_user_id = ?)');
      values.push(filter.actor, filter.actor);
    }
    if (filter.from !== undefined) {
      where.push('time >= ?');
      values.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push('time < ?');
      values.push(filter.to);
    }
    const rows = this.statement(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY time DESC, seq DESC LIMIT ? OFFSET ?`).all(
      ...values,
      filter.max ?? -1,
      filter.first ?? 0,
    ) as Row[];
    return rows.map(eventFromRow);
  }

  async retentionDays(realm: string): Promise<number | null> {
    const row = this.statement('SELECT days FROM event_retention WHERE realm = ?').get(realm) as Row | undefined;
    return row ? Number(row.days) : null;
  }

  async setRetentionDays(realm: string, days: number | null, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.statement('SELECT * FROM realms WHERE name = ?').get(realm) as Row | undefined;
        if (!row) return false;
        if (days === null) this.statement('DELETE FROM event_retention WHERE realm = ?').run(realm);
        else this.statement('INSERT INTO event_retention (realm, days) VALUES (?, ?) ON CONFLICT (realm) DO UPDATE SET days = excluded.days').run(realm, days);
        this.write(adminEvent(realm, realmChange('UPDATE', { realm: realmFromRow(row), eventRetentionDays: days }), origin, this.clock()));
        return true;
      })
      .immediate();
  }

  async retentionSettings(): Promise<Array<{ realm: string; days: number }>> {
    return (this.statement('SELECT realm, days FROM event_retention ORDER BY realm').all() as Row[]).map((row) => ({
      realm: String(row.realm),
      days: Number(row.days),
    }));
  }

  async prune(realm: string, before: number, limit: number): Promise<number> {
    return this.statement(
      `DELETE FROM events WHERE seq IN (
         SELECT e.seq FROM events AS e WHERE e.realm = ? AND e.time < ?
           AND NOT EXISTS (SELECT 1 FROM event_outbox AS o WHERE o.seq = e.seq)
           AND NOT EXISTS (SELECT 1 FROM webhook_sends AS s WHERE s.event_seq = e.seq AND s.state = 'pending')
         ORDER BY e.time LIMIT ?)`,
    ).run(realm, before, limit).changes;
  }

  // Webhooks -------------------------------------------------------------------------------------

  private insertWebhook(webhook: WebhookRecord): void {
    this.statement(
      `INSERT INTO webhooks (id, realm, url, secret, enabled, event_types, created_by, created_timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      webhook.id,
      webhook.realm,
      webhook.url,
      webhook.secret,
      webhook.enabled ? 1 : 0,
      JSON.stringify(webhook.eventTypes),
      webhook.createdBy,
      webhook.createdTimestamp,
    );
  }

  async createWebhook(webhook: WebhookRecord, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<void> {
    this.db
      .transaction(() => {
        this.insertWebhook(webhook);
        this.write(adminEvent(webhook.realm, webhookChangeOf('CREATE', webhook), origin, this.clock()));
      })
      .immediate();
  }

  async getWebhook(realm: string, id: string): Promise<WebhookRecord | undefined> {
    const row = this.statement('SELECT * FROM webhooks WHERE realm = ? AND id = ?').get(realm, id) as Row | undefined;
    return row && webhookFromRow(row);
  }

  async listWebhooks(realm: string, first: number, max: number): Promise<WebhookRecord[]> {
    return (this.statement('SELECT * FROM webhooks WHERE realm = ? ORDER BY created_timestamp, id LIMIT ? OFFSET ?').all(realm, max, first) as Row[]).map(
      webhookFromRow,
    );
  }

  async countWebhooks(realm: string): Promise<number> {
    return Number((this.statement('SELECT count(*) AS n FROM webhooks WHERE realm = ?').get(realm) as Row).n);
  }

  async updateWebhook(realm: string, id: string, update: WebhookUpdate, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<WebhookRecord | undefined> {
    return this.db
      .transaction(() => {
        const row = this.statement(
          `UPDATE webhooks SET url = coalesce(?, url), secret = coalesce(?, secret), enabled = coalesce(?, enabled),
             event_types = coalesce(?, event_types) WHERE realm = ? AND id = ? RETURNING *`,
        ).get(
          update.url ?? null,
          update.secret ?? null,
          update.enabled === undefined ? null : update.enabled ? 1 : 0,
          update.eventTypes === undefined ? null : JSON.stringify(update.eventTypes),
          realm,
          id,
        ) as Row | undefined;
        if (!row) return undefined;
        const webhook = webhookFromRow(row);
        this.write(adminEvent(realm, webhookChangeOf('UPDATE', webhook), origin, this.clock()));
        return webhook;
      })
      .immediate();
  }

  async deleteWebhook(realm: string, id: string, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<boolean> {
    return this.db
      .transaction(() => {
        if (this.statement('DELETE FROM webhooks WHERE realm = ? AND id = ?').run(realm, id).changes === 0) return false;
        this.write(adminEvent(realm, webhookDeletedOf(id), origin, this.clock()));
        return true;
      })
      .immediate();
  }

  async listSends(realm: string, webhookId: string, first: number, max: number): Promise<WebhookSendRecord[]> {
    const rows = this.statement(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq JOIN webhooks AS w ON w.id = s.webhook_id
       WHERE w.realm = ? AND s.webhook_id = ? ORDER BY s.seq DESC LIMIT ? OFFSET ?`,
    ).all(realm, webhookId, max, first) as Row[];
    return rows.map(sendFromRow);
  }

  async getSend(realm: string, webhookId: string, sendId: string): Promise<DueSend | undefined> {
    const row = this.statement(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq JOIN webhooks AS w ON w.id = s.webhook_id
       WHERE w.realm = ? AND s.webhook_id = ? AND s.id = ?`,
    ).get(realm, webhookId, sendId) as Row | undefined;
    return row && this.withEvent(sendFromRow(row));
  }

  private withEvent(send: WebhookSendRecord): DueSend {
    const event = eventFromRow(this.statement('SELECT * FROM events WHERE seq = ?').get(send.eventSeq) as Row);
    return { send, event };
  }

  async resend(realm: string, webhookId: string, sendId: string, now: number): Promise<boolean> {
    const changed =
      this.statement(
        `UPDATE webhook_sends SET state = 'pending', first_attempt_timestamp = NULL, next_attempt_timestamp = ?
         WHERE id = ? AND webhook_id = ? AND EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND realm = ?)`,
      ).run(now, sendId, webhookId, webhookId, realm).changes > 0;
    if (changed) this.signal.notify();
    return changed;
  }

  // Delivery -------------------------------------------------------------------------------------

  async fanOut(limit: number, matches: (webhook: WebhookRecord, event: StoredEvent) => boolean, newSendId: () => string, now: number): Promise<number> {
    return this.db
      .transaction(() => {
        const events = (this.statement('SELECT e.* FROM event_outbox AS o JOIN events AS e ON e.seq = o.seq ORDER BY o.seq LIMIT ?').all(limit) as Row[]).map(
          eventFromRow,
        );
        const webhooksOf = new Map<string, WebhookRecord[]>();
        for (const event of events) {
          let webhooks = webhooksOf.get(event.realm);
          if (webhooks === undefined) {
            webhooks = (this.statement('SELECT * FROM webhooks WHERE realm = ? AND enabled = 1').all(event.realm) as Row[]).map(webhookFromRow);
            webhooksOf.set(event.realm, webhooks);
          }
          for (const webhook of webhooks) {
            if (webhook.createdTimestamp > event.time || !matches(webhook, event)) continue;
            this.statement(
              `INSERT INTO webhook_sends (id, webhook_id, event_seq, event_type, state, next_attempt_timestamp)
               VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (webhook_id, event_seq) DO NOTHING`,
            ).run(newSendId(), webhook.id, event.seq, event.type, now);
          }
          this.statement('DELETE FROM event_outbox WHERE seq = ?').run(event.seq);
        }
        return events.length;
      })
      .immediate();
  }

  async leaseWebhooks(owner: string, now: number, leaseMs: number, limit: number): Promise<WebhookRecord[]> {
    const rows = this.statement(
      `UPDATE webhooks SET lease_owner = ?, lease_until = ? WHERE id IN (
         SELECT w.id FROM webhooks AS w WHERE w.enabled = 1 AND (w.lease_until IS NULL OR w.lease_until <= ? OR w.lease_owner = ?)
           AND EXISTS (SELECT 1 FROM webhook_sends AS s WHERE s.webhook_id = w.id AND s.state = 'pending' AND s.next_attempt_timestamp <= ?)
         LIMIT ?) RETURNING *`,
    ).all(owner, now + leaseMs, now, owner, now, limit) as Row[];
    return rows.map(webhookFromRow);
  }

  async renewLease(webhookId: string, owner: string, until: number): Promise<boolean> {
    return this.statement('UPDATE webhooks SET lease_until = ? WHERE id = ? AND lease_owner = ?').run(until, webhookId, owner).changes > 0;
  }

  async releaseLease(webhookId: string, owner: string): Promise<void> {
    this.statement('UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?').run(webhookId, owner);
  }

  async releaseLeasesOf(owner: string): Promise<void> {
    this.statement('UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?').run(owner);
  }

  async nextDueSend(webhookId: string, now: number): Promise<DueSend | undefined> {
    const row = this.statement(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq
       WHERE s.webhook_id = ? AND s.state = 'pending' ORDER BY s.event_seq LIMIT 1`,
    ).get(webhookId) as Row | undefined;
    if (!row) return undefined;
    const send = sendFromRow(row);
    // The first pending send holds back the later ones until it is due: sends arrive in event order.
    return send.nextAttemptTimestamp <= now ? this.withEvent(send) : undefined;
  }

  async finishAttempt(sendId: string, result: AttemptResult): Promise<void> {
    this.statement(
      `UPDATE webhook_sends SET state = ?, attempts = attempts + 1, first_attempt_timestamp = coalesce(first_attempt_timestamp, ?),
         next_attempt_timestamp = ?, last_status = ?, last_error = ?, sent_timestamp = ? WHERE id = ?`,
    ).run(result.state, result.attemptedAt, result.nextAttemptTimestamp, result.status, result.error, result.attemptedAt, sendId);
  }

  async outboxDepth(): Promise<number> {
    return Number((this.statement("SELECT (SELECT count(*) FROM event_outbox) + (SELECT count(*) FROM webhook_sends WHERE state = 'pending') AS n").get() as Row).n);
  }

  async deliveryCounts(): Promise<DeliveryCounts> {
    const outbox = Number((this.statement('SELECT count(*) AS n FROM event_outbox').get() as Row).n);
    const counts = { pending: 0, delivered: 0, failed: 0 };
    for (const row of this.statement('SELECT state, count(*) AS n FROM webhook_sends GROUP BY state').all() as Row[]) {
      counts[String(row.state) as keyof typeof counts] = Number(row.n);
    }
    return { outbox, ...counts };
  }

  onRecorded(listener: () => void): () => void {
    return this.signal.listen(listener);
  }
}
