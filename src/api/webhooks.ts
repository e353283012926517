/**
 * Webhooks on the wire, as the vendor's p2-inc/keycloak-events serves them under
 * `/realms/{realm}/webhooks` (its spec's `WebhookRepresentation`, `WebhookSendRepresentation`,
 * `CredentialRepresentation`), and the signature every delivery carries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { MAX_EVENT_TYPE_PATTERNS, MAX_EVENT_TYPE_PATTERN_LENGTH, MAX_URL_LENGTH, MAX_WEBHOOK_SECRET_LENGTH } from './validation';

/**
 * The header of a delivery's signature: the lowercase hex HMAC-SHA-256 of the request body's exact
 * bytes under the webhook's secret, as the vendor's sender writes it.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Keycloak-Signature';

/** The signature of a delivery body under `secret` (lowercase hex HMAC-SHA-256). */
export function webhookSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `signature` (the {@link WEBHOOK_SIGNATURE_HEADER} value) is the signature of `body`
 * under `secret`, compared in constant time. Verify the raw body as received, before parsing it.
 *
 * @example
 * if (!verifyWebhookSignature(secret, rawBody, request.headers['x-keycloak-signature'])) reply.code(401);
 */
export function verifyWebhookSignature(secret: string, body: string | Buffer, signature: string | string[] | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(webhookSignature(secret, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/** A webhook as the service answers it: never its secret (read that through `/secret`). */
export const WebhookSchema = Type.Object({
  id: Type.String(),
  enabled: Type.Boolean(),
  url: Type.String(),
  /** Event-type filters (`*`, `admin.*`, `access.LOGIN_ERROR`, …). */
  eventTypes: Type.Array(Type.String()),
  /** The user id of whoever created it (an API key's service-account user or an end user), when known. */
  createdBy: Type.Optional(Type.String()),
  /** Milliseconds since the epoch. */
  createdAt: Type.Integer(),
  realm: Type.String(),
});
/** A webhook on the wire. */
export type WebhookRepresentation = Static<typeof WebhookSchema>;
/** `GET /webhooks`: a page of webhooks. */
export const WebhookListSchema = Type.Array(WebhookSchema);

/**
 * The body of create and update (the vendor's `WebhookRepresentation`): `id`, `createdBy`,
 * `createdAt` and `realm` are ignored. On update, an absent `secret` keeps the old one and absent
 * `eventTypes` keep the old filters; on create they default to a generated secret and `["*"]`.
 * `enabled` is a boolean or the strings `"true"`/`"false"` (the vendor's docs send strings).
 */
export const WebhookInputSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH }),
    enabled: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')])),
    secret: Type.Optional(Type.Union([Type.String({ maxLength: MAX_WEBHOOK_SECRET_LENGTH }), Type.Null()])),
    eventTypes: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: MAX_EVENT_TYPE_PATTERN_LENGTH }), { maxItems: MAX_EVENT_TYPE_PATTERNS }), Type.Null()]),
    ),
  },
  { additionalProperties: true },
);
/** The body of create and update. */
export type WebhookInput = Static<typeof WebhookInputSchema>;

/** `GET /webhooks/{id}/secret` (the vendor's `CredentialRepresentation`). */
export const WebhookSecretSchema = Type.Object({ type: Type.Literal('secret'), value: Type.String() });

/** One delivery of one event to one webhook (the vendor's `WebhookSendRepresentation`). */
export const WebhookSendSchema = Type.Object({
  /** The send's id: the delivered payload's `uid`. */
  id: Type.String(),
  /** The event's type. */
  type: Type.String(),
  /** HTTP status of the last attempt; absent when no attempt got an answer yet. */
  status: Type.Optional(Type.Integer()),
  /** `HTTP 200 OK`, as the vendor words it; `HTTP 999 Unknown Status Code` when no answer came. */
  status_message: Type.String(),
  /** Attempts made so far. */
  retries: Type.Integer(),
  /** When the last attempt was made (ISO 8601), absent before the first. */
  sent_at: Type.Optional(Type.String()),
  /** The event's id. */
  event_id: Type.String(),
  /** `ADMIN` or `USER` (Keycloak's kinds: access events are user events). */
  keycloak_event_type: Type.String(),
  /** The event's id again, where the vendor names Keycloak's own event id. */
  keycloak_event_id: Type.String(),
  /** `pending` (to be tried, again or for the first time), `delivered`, or `failed` (retries given up). This service's addition. */
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  /** When the next attempt is due (ISO 8601), while pending. This service's addition. */
  next_attempt_at: Type.Optional(Type.String()),
  /** The webhook, briefly. */
  webhook: Type.Object({ id: Type.String(), enabled: Type.Boolean(), url: Type.String() }),
  /** The delivered body (one send only, not in lists). */
  payload: Type.Optional(Type.String()),
});
/** One send on the wire. */
export type WebhookSendRepresentation = Static<typeof WebhookSendSchema>;
/** `GET /webhooks/{id}/sends`: a page of sends, newest first. */
export const WebhookSendListSchema = Type.Array(WebhookSendSchema);

/** Page size of webhook and send lists: default and cap (the vendor's 100). */
export const WEBHOOKS_PAGE = { default: 100, cap: 100 } as const;
