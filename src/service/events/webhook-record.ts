/**
 * Webhooks and their sends as the stores keep them, and their wire forms (src/api/webhooks.ts).
 */
import type { WebhookRepresentation, WebhookSendRepresentation } from '../../api';

/** A webhook as stored: with its secret, which only signing and `GET …/secret` read. */
export interface WebhookRecord {
  id: string;
  realm: string;
  url: string;
  secret: string;
  enabled: boolean;
  /** Event-type filters (src/api/events.ts `eventTypeMatches`). */
  eventTypes: string[];
  /** The user id of whoever created it, when known. */
  createdBy: string | null;
  /** Milliseconds since the epoch; a webhook receives only events recorded after it. */
  createdTimestamp: number;
}

/** The fields of a webhook an update may change; an absent field stays as it is. */
export interface WebhookUpdate {
  url?: string;
  secret?: string;
  enabled?: boolean;
  eventTypes?: string[];
}

/** Where a send stands. */
export type SendState = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one webhook. */
export interface WebhookSendRecord {
  /** The payload's `uid`. */
  id: string;
  webhookId: string;
  /** The event's place in the log. */
  eventSeq: number;
  eventId: string;
  eventType: string;
  state: SendState;
  /** Attempts made so far (all rounds). */
  attempts: number;
  /** When the first attempt of the current round was made, or null before it (ms). */
  firstAttemptTimestamp: number | null;
  /** When the next attempt is due (ms). */
  nextAttemptTimestamp: number;
  /** HTTP status of the last attempt, or null when it got no answer. */
  lastStatus: number | null;
  /** What went wrong in the last attempt (no status, a timeout, a refused address), or null. */
  lastError: string | null;
  /** When the last attempt was made (ms), or null. */
  sentTimestamp: number | null;
}

/** A webhook on the wire: never its secret. */
export function webhookToWire(webhook: WebhookRecord): WebhookRepresentation {
  const wire: WebhookRepresentation = {
    id: webhook.id,
    enabled: webhook.enabled,
    url: webhook.url,
    eventTypes: [...webhook.eventTypes],
    createdAt: webhook.createdTimestamp,
    realm: webhook.realm,
  };
  if (webhook.createdBy !== null) wire.createdBy = webhook.createdBy;
  return wire;
}

/** Reason phrases of the statuses a receiver commonly answers (the vendor prints Java's names). */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `HTTP 200 OK`, as the vendor words a send's status; `HTTP 999 Unknown Status Code` without an answer. */
export function statusMessage(status: number | null): string {
  if (status === null) return 'HTTP 999 Unknown Status Code';
  return `HTTP ${status} ${REASONS[status] ?? 'Unknown Status Code'}`;
}

/** A send on the wire; `payload` only when reading one send. */
export function sendToWire(send: WebhookSendRecord, webhook: WebhookRecord, payload?: string): WebhookSendRepresentation {
  const wire: WebhookSendRepresentation = {
    id: send.id,
    type: send.eventType,
    status_message: statusMessage(send.lastStatus),
    retries: send.attempts,
    event_id: send.eventId,
    keycloak_event_type: send.eventType.startsWith('admin.') ? 'ADMIN' : 'USER',
    keycloak_event_id: send.eventId,
    state: send.state,
    webhook: { id: webhook.id, enabled: webhook.enabled, url: webhook.url },
  };
  if (send.lastStatus !== null) wire.status = send.lastStatus;
  if (send.sentTimestamp !== null) wire.sent_at = new Date(send.sentTimestamp).toISOString();
  if (send.state === 'pending') wire.next_attempt_at = new Date(send.nextAttemptTimestamp).toISOString();
  if (payload !== undefined) wire.payload = payload;
  return wire;
}
