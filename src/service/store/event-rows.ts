/**
 * Rows of the event tables (migration 010) as records, for both stores: SQLite hands JSON columns
 * over as text and booleans as 0/1, PostgreSQL parses jsonb and has booleans.
 */
import type { OperationType, ResourceType } from '../../api';
import type { StoredEvent } from '../events/event';
import type { SendState, WebhookRecord, WebhookSendRecord } from '../events/webhook-record';

type Row = Record<string, unknown>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** An `events` row. */
export function eventFromRow(row: Row): StoredEvent {
  return {
    seq: Number(row.seq),
    id: String(row.id),
    realm: String(row.realm),
    time: Number(row.time),
    type: String(row.type),
    operationType: text(row.operation_type) as OperationType | null,
    resourceType: text(row.resource_type) as ResourceType | null,
    resourcePath: text(row.resource_path),
    representation: text(row.representation),
    error: text(row.error),
    details: json(row.details) as Record<string, string>,
    origin: {
      clientId: text(row.auth_client_id),
      userId: text(row.auth_user_id),
      username: text(row.auth_username),
      ipAddress: text(row.auth_ip_address),
    },
  };
}

/** A `webhooks` row. */
export function webhookFromRow(row: Row): WebhookRecord {
  return {
    id: String(row.id),
    realm: String(row.realm),
    url: String(row.url),
    secret: String(row.secret),
    enabled: row.enabled === true || row.enabled === 1,
    eventTypes: json(row.event_types) as string[],
    createdBy: text(row.created_by),
    createdTimestamp: Number(row.created_timestamp),
  };
}

/** A `webhook_sends` row joined with its event's id (`event_id`). */
export function sendFromRow(row: Row): WebhookSendRecord {
  return {
    id: String(row.id),
    webhookId: String(row.webhook_id),
    eventSeq: Number(row.event_seq),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    state: String(row.state) as SendState,
    attempts: Number(row.attempts),
    firstAttemptTimestamp: num(row.first_attempt_timestamp),
    nextAttemptTimestamp: Number(row.next_attempt_timestamp),
    lastStatus: num(row.last_status),
    lastError: text(row.last_error),
    sentTimestamp: num(row.sent_timestamp),
  };
}

/** The columns of an event insert, in {@link eventValues} order. */
export const EVENT_COLUMNS =
  'id, realm, time, type, operation_type, resource_type, resource_path, representation, error, details, auth_client_id, auth_user_id, auth_username, auth_ip_address';

/** The values of an event insert, in {@link EVENT_COLUMNS} order. */
export function eventValues(event: Omit<StoredEvent, 'seq'>): unknown[] {
  const { origin } = event;
  return [
    event.id,
    event.realm,
    event.time,
    event.type,
    event.operationType,
    event.resourceType,
    event.resourcePath,
    event.representation,
    event.error,
    JSON.stringify(event.details),
    origin.clientId,
    origin.userId,
    origin.username ?? null,
    origin.ipAddress,
  ];
}

/**
 * The audit log's type filters as SQL `LIKE` patterns: `*` becomes `%`, and `%`, `_` and the
 * escape character are escaped (event types hold `_`). Use with `ESCAPE '\'`.
 */
export function likePattern(filter: string): string {
  return filter.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}
