/**
 * {@link EventStore} on the PostgreSQL store's database, and the two ways its write methods record
 * events: {@link writePostgresEvent} inside a transaction, and {@link eventCtes} as `WITH` parts of
 * the change's own statement (one round trip for the hot writes). Several instances share the
 * tables: outbox rows and webhooks are claimed with `FOR UPDATE SKIP LOCKED`, so two instances never
 * hand out the same event or deliver to the same webhook at once.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { realmChange, webhookChange, webhookDeleted } from '../events/changes';
import { adminEvent, UNKNOWN_ORIGIN, type ChangeOrigin, type NewEvent, type StoredEvent } from '../events/event';
import type { WebhookRecord, WebhookSendRecord, WebhookUpdate } from '../events/webhook-record';
import { EVENT_COLUMNS, eventFromRow, eventValues, likePattern, sendFromRow, webhookFromRow } from './event-rows';
import type { AttemptResult, DeliveryCounts, DueSend, EventFilter, EventStore } from './event-store';
import { RecordedSignal } from './recorded-signal';
import { JSON_PARSED, rowReaders } from './rows';

type Row = QueryResultRow;
const { realmFromRow } = rowReaders(JSON_PARSED);

/** SQL types of the event columns, in `EVENT_COLUMNS` order (parameters in `INSERT … SELECT` need them). */
const EVENT_COLUMN_TYPES = ['text', 'text', 'bigint', 'text', 'text', 'text', 'text', 'text', 'text', 'jsonb', 'text', 'text', 'text', 'text'];

/** PostgreSQL text cannot hold U+0000; an event's text fields never should, but a caller's input might. */
function storableEvent(event: NewEvent): NewEvent {
  const clean = (value: string | null | undefined): string | null => (value === null || value === undefined ? null : value.replace(/\u0000/g, '\uFFFD'));
  return {
    ...event,
    resourcePath: clean(event.resourcePath),
    error: clean(event.error),
    origin: { clientId: clean(event.origin.clientId), userId: clean(event.origin.userId), username: clean(event.origin.username), ipAddress: clean(event.origin.ipAddress) },
  };
}

/**
 * `WITH` parts (without the `WITH`) that insert `event`, and its outbox row when the realm has an
 * enabled webhook, only if the statement's `onlyIf` part returned a row (always when absent).
 * `add` adds a parameter and returns its placeholder. Put them after the change's own parts.
 */
export function eventCtes(add: (value: unknown) => string, event: NewEvent, onlyIf?: string): string {
  const values = eventValues(storableEvent(event)).map((value, i) => `${add(value)}::${EVENT_COLUMN_TYPES[i]}`);
  const guard = onlyIf === undefined ? '' : ` WHERE EXISTS (SELECT 1 FROM ${onlyIf})`;
  return `recorded_event AS (INSERT INTO events (${EVENT_COLUMNS}) SELECT ${values.join(', ')}${guard} RETURNING seq, realm),
    recorded_outbox AS (INSERT INTO event_outbox (seq) SELECT seq FROM recorded_event
      WHERE EXISTS (SELECT 1 FROM webhooks WHERE webhooks.realm = recorded_event.realm AND webhooks.enabled))`;
}

/**
 * Writes `event` (and its outbox row) on `db`; inside a transaction, it commits with the change.
 * The statement's text is the same for every event, so it is a named prepared statement: each
 * connection plans it once instead of at every change (bench/events.mjs measures the difference).
 */
export async function writePostgresEvent(db: Pool | PoolClient, event: NewEvent): Promise<void> {
  const values: unknown[] = [];
  const add = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  await db.query({ name: 'orgadmin_record_event', text: `WITH ${eventCtes(add, event)} SELECT 1`, values });
}

const SEND_COLUMNS = 's.*, e.id AS event_id';

/** The events half of the PostgreSQL store. */
export class PostgresEvents implements EventStore {
  /** Tells this process's delivery worker that events were recorded. */
  readonly signal = new RecordedSignal();

  constructor(
    private readonly pool: Pool,
    private readonly transaction: <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>,
    private readonly clock: () => number,
  ) {}

  private async rows(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, values)).rows;
  }

  async record(event: NewEvent): Promise<void> {
    await writePostgresEvent(this.pool, event);
    this.signal.notify();
  }

  async list(realm: string, filter: EventFilter): Promise<StoredEvent[]> {
    const values: unknown[] = [realm];
    const add = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    const where = ['realm = $1'];
    if (filter.types !== undefined && filter.types.length > 0) {
      where.push(`(${filter.types.map((type) => `type LIKE ${add(likePattern(type))} ESCAPE '\\'`).join(' OR ')})`);
    }
    if (filter.resourcePathPrefix !== undefined && filter.resourcePathPrefix !== '') {
      where.push(`starts_with(resource_path, ${add(filter.resourcePathPrefix.replace(/\u0000/g, '\uFFFD'))})`);
    }
    if (filter.actor !== undefined) {
      const actor = add(filter.actor.replace(/\u0000/g, '\uFFFD'));
      where.push(`(auth_client_id = ${actor} OR auth_user_id = ${actor})`);
    }
    if (filter.from !== undefined) where.push(`time >= ${add(filter.from)}`);
    if (filter.to !== undefined) where.push(`time < ${add(filter.to)}`);
    const limit = filter.max === undefined ? '' : ` LIMIT ${add(filter.max)}`;
    const rows = await this.rows(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY time DESC, seq DESC${limit} OFFSET ${add(filter.first ?? 0)}`, values);
    return rows.map(eventFromRow);
  }

  async retentionDays(realm: string): Promise<number | null> {
    const [row] = await this.rows('SELECT days FROM event_retention WHERE realm = $1', [realm]);
    return row ? Number(row.days) : null;
  }

  async setRetentionDays(realm: string, days: number | null, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<boolean> {
    const done = await this.transaction(async (client) => {
      const [row] = (await client.query('SELECT * FROM realms WHERE name = $1 FOR UPDATE', [realm])).rows;
      if (!row) return false;
      if (days === null) await client.query('DELETE FROM event_retention WHERE realm = $1', [realm]);
      else await client.query('INSERT INTO event_retention (realm, days) VALUES ($1, $2) ON CONFLICT (realm) DO UPDATE SET days = excluded.days', [realm, days]);
      await writePostgresEvent(client, adminEvent(realm, realmChange('UPDATE', { realm: realmFromRow(row), eventRetentionDays: days }), origin, this.clock()));
      return true;
    });
    if (done) this.signal.notify();
    return done;
  }

  async retentionSettings(): Promise<Array<{ realm: string; days: number }>> {
    return (await this.rows('SELECT realm, days FROM event_retention ORDER BY realm')).map((row) => ({ realm: String(row.realm), days: Number(row.days) }));
  }

  async prune(realm: string, before: number, limit: number): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM events WHERE seq IN (
         SELECT e.seq FROM events AS e WHERE e.realm = $1 AND e.time < $2
           AND NOT EXISTS (SELECT 1 FROM event_outbox AS o WHERE o.seq = e.seq)
           AND NOT EXISTS (SELECT 1 FROM webhook_sends AS s WHERE s.event_seq = e.seq AND s.state = 'pending')
         ORDER BY e.time LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [realm, before, limit],
    );
    return result.rowCount ?? 0;
  }

  // Webhooks -------------------------------------------------------------------------------------

  async createWebhook(webhook: WebhookRecord, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(
        `INSERT INTO webhooks (id, realm, url, secret, enabled, event_types, created_by, created_timestamp)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
        [webhook.id, webhook.realm, webhook.url, webhook.secret, webhook.enabled, JSON.stringify(webhook.eventTypes), webhook.createdBy, webhook.createdTimestamp],
      );
      await writePostgresEvent(client, adminEvent(webhook.realm, webhookChange('CREATE', webhook), origin, this.clock()));
    });
    this.signal.notify();
  }

  async getWebhook(realm: string, id: string): Promise<WebhookRecord | undefined> {
    const [row] = await this.rows('SELECT * FROM webhooks WHERE realm = $1 AND id = $2', [realm, id]);
    return row && webhookFromRow(row);
  }

  async listWebhooks(realm: string, first: number, max: number): Promise<WebhookRecord[]> {
    return (await this.rows('SELECT * FROM webhooks WHERE realm = $1 ORDER BY created_timestamp, id LIMIT $2 OFFSET $3', [realm, max, first])).map(webhookFromRow);
  }

  async countWebhooks(realm: string): Promise<number> {
    return Number((await this.rows('SELECT count(*) AS n FROM webhooks WHERE realm = $1', [realm]))[0]!.n);
  }

  async updateWebhook(realm: string, id: string, update: WebhookUpdate, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<WebhookRecord | undefined> {
    const webhook = await this.transaction(async (client) => {
      const [row] = (
        await client.query(
          `UPDATE webhooks SET url = coalesce($1, url), secret = coalesce($2, secret), enabled = coalesce($3, enabled),
             event_types = coalesce($4::jsonb, event_types) WHERE realm = $5 AND id = $6 RETURNING *`,
          [update.url ?? null, update.secret ?? null, update.enabled ?? null, update.eventTypes === undefined ? null : JSON.stringify(update.eventTypes), realm, id],
        )
      ).rows;
      if (!row) return undefined;
      const updated = webhookFromRow(row);
      await writePostgresEvent(client, adminEvent(realm, webhookChange('UPDATE', updated), origin, this.clock()));
      return updated;
    });
    if (webhook) this.signal.notify();
    return webhook;
  }

  async deleteWebhook(realm: string, id: string, origin: ChangeOrigin = UNKNOWN_ORIGIN): Promise<boolean> {
    const values: unknown[] = [realm, id];
    const add = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    const [row] = await this.rows(
      `WITH deleted AS (DELETE FROM webhooks WHERE realm = $1 AND id = $2 RETURNING id),
         ${eventCtes(add, adminEvent(realm, webhookDeleted(id), origin, this.clock()), 'deleted')}
       SELECT count(*) AS n FROM deleted`,
      values,
    );
    const deleted = Number(row!.n) > 0;
    if (deleted) this.signal.notify();
    return deleted;
  }

  async listSends(realm: string, webhookId: string, first: number, max: number): Promise<WebhookSendRecord[]> {
    const rows = await this.rows(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq JOIN webhooks AS w ON w.id = s.webhook_id
       WHERE w.realm = $1 AND s.webhook_id = $2 ORDER BY s.seq DESC LIMIT $3 OFFSET $4`,
      [realm, webhookId, max, first],
    );
    return rows.map(sendFromRow);
  }

  async getSend(realm: string, webhookId: string, sendId: string): Promise<DueSend | undefined> {
    const [row] = await this.rows(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq JOIN webhooks AS w ON w.id = s.webhook_id
       WHERE w.realm = $1 AND s.webhook_id = $2 AND s.id = $3`,
      [realm, webhookId, sendId],
    );
    return row && this.withEvent(sendFromRow(row));
  }

  private async withEvent(send: WebhookSendRecord): Promise<DueSend> {
    const [row] = await this.rows('SELECT * FROM events WHERE seq = $1', [send.eventSeq]);
    return { send, event: eventFromRow(row!) };
  }

  async resend(realm: string, webhookId: string, sendId: string, now: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE webhook_sends SET state = 'pending', first_attempt_timestamp = NULL, next_attempt_timestamp = $1
       WHERE id = $2 AND webhook_id = $3 AND EXISTS (SELECT 1 FROM webhooks WHERE id = $3 AND realm = $4)`,
      [now, sendId, webhookId, realm],
    );
    const changed = (result.rowCount ?? 0) > 0;
    if (changed) this.signal.notify();
    return changed;
  }

  // Delivery -------------------------------------------------------------------------------------

  async fanOut(limit: number, matches: (webhook: WebhookRecord, event: StoredEvent) => boolean, newSendId: () => string, now: number): Promise<number> {
    return this.transaction(async (client) => {
      // Outbox rows another instance is handing out are skipped, not waited for.
      const events = (
        await client.query(
          `SELECT e.* FROM event_outbox AS o JOIN events AS e ON e.seq = o.seq ORDER BY o.seq LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
          [limit],
        )
      ).rows.map(eventFromRow);
      if (events.length === 0) return 0;
      const realms = [...new Set(events.map((event) => event.realm))];
      const webhooks = (await client.query('SELECT * FROM webhooks WHERE realm = ANY($1::text[]) AND enabled', [realms])).rows.map(webhookFromRow);
      const sends: Array<[string, string, number, string]> = [];
      for (const event of events) {
        for (const webhook of webhooks) {
          if (webhook.realm !== event.realm || webhook.createdTimestamp > event.time || !matches(webhook, event)) continue;
          sends.push([newSendId(), webhook.id, event.seq, event.type]);
        }
      }
      if (sends.length > 0) {
        await client.query(
          `INSERT INTO webhook_sends (id, webhook_id, event_seq, event_type, state, next_attempt_timestamp)
           SELECT id, webhook_id, event_seq, event_type, 'pending', $5 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
             AS s(id, webhook_id, event_seq, event_type)
           ON CONFLICT (webhook_id, event_seq) DO NOTHING`,
          [sends.map((s) => s[0]), sends.map((s) => s[1]), sends.map((s) => s[2]), sends.map((s) => s[3]), now],
        );
      }
      await client.query('DELETE FROM event_outbox WHERE seq = ANY($1::bigint[])', [events.map((event) => event.seq)]);
      return events.length;
    });
  }

  async leaseWebhooks(owner: string, now: number, leaseMs: number, limit: number): Promise<WebhookRecord[]> {
    const rows = await this.rows(
      `UPDATE webhooks SET lease_owner = $1, lease_until = $2 WHERE id IN (
         SELECT w.id FROM webhooks AS w WHERE w.enabled AND (w.lease_until IS NULL OR w.lease_until <= $3 OR w.lease_owner = $1)
           AND EXISTS (SELECT 1 FROM webhook_sends AS s WHERE s.webhook_id = w.id AND s.state = 'pending' AND s.next_attempt_timestamp <= $3)
         LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING *`,
      [owner, now + leaseMs, now, limit],
    );
    return rows.map(webhookFromRow);
  }

  async renewLease(webhookId: string, owner: string, until: number): Promise<boolean> {
    const result = await this.pool.query('UPDATE webhooks SET lease_until = $1 WHERE id = $2 AND lease_owner = $3', [until, webhookId, owner]);
    return (result.rowCount ?? 0) > 0;
  }

  async releaseLease(webhookId: string, owner: string): Promise<void> {
    await this.pool.query('UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [webhookId, owner]);
  }

  async releaseLeasesOf(owner: string): Promise<void> {
    await this.pool.query('UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner]);
  }

  async nextDueSend(webhookId: string, now: number): Promise<DueSend | undefined> {
    const [row] = await this.rows(
      `SELECT ${SEND_COLUMNS} FROM webhook_sends AS s JOIN events AS e ON e.seq = s.event_seq
       WHERE s.webhook_id = $1 AND s.state = 'pending' ORDER BY s.event_seq LIMIT 1`,
      [webhookId],
    );
    if (!row) return undefined;
    const send = sendFromRow(row);
    // The first pending send holds back the later ones until it is due: sends arrive in event order.
    return send.nextAttemptTimestamp <= now ? this.withEvent(send) : undefined;
  }

  async finishAttempt(sendId: string, result: AttemptResult): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_sends SET state = $1, attempts = attempts + 1, first_attempt_timestamp = coalesce(first_attempt_timestamp, $2),
         next_attempt_timestamp = $3, last_status = $4, last_error = $5, sent_timestamp = $2 WHERE id = $6`,
      [result.state, result.attemptedAt, result.nextAttemptTimestamp, result.status, result.error, sendId],
    );
  }

  async outboxDepth(): Promise<number> {
    const [row] = await this.rows("SELECT (SELECT count(*) FROM event_outbox) + (SELECT count(*) FROM webhook_sends WHERE state = 'pending') AS n");
    return Number(row!.n);
  }

  async deliveryCounts(): Promise<DeliveryCounts> {
    const [outbox] = await this.rows('SELECT count(*) AS n FROM event_outbox');
    const counts = { pending: 0, delivered: 0, failed: 0 };
    for (const row of await this.rows('SELECT state, count(*) AS n FROM webhook_sends GROUP BY state')) {
      counts[String(row.state) as keyof typeof counts] = Number(row.n);
    }
    return { outbox: Number(outbox!.n), ...counts };
  }

  onRecorded(listener: () => void): () => void {
    return this.signal.listen(listener);
  }
}
