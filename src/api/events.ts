/**
 * Admin and access events on the wire (docs/guides/service.md, "Events, audit log and webhooks"):
 * the event representation the audit log answers and webhooks deliver, its type names, and the
 * event-type filters of webhooks. The shape is the vendor's unified event (p2-inc/keycloak-events'
 * `ExtendedAdminEvent`, which extends Keycloak's `AdminEvent`): `type` is `admin.<RESOURCE>-<OP>`
 * for changes and `access.<KEYCLOAK EVENT TYPE>` for sign-ins and token grants.
 */
import { Type, type Static } from '@sinclair/typebox';


/** Keycloak's admin operation types. */
export const OPERATION_TYPES = ['CREATE', 'UPDATE', 'DELETE', 'ACTION'] as const;
/** One admin operation type. */
export type OperationType = (typeof OPERATION_TYPES)[number];

/**
 * The resource types this service records changes of: Keycloak's names (`REALM`, `USER`, `CLIENT`,
 * `REALM_ROLE_MAPPING`, `IDENTITY_PROVIDER`, `IDENTITY_PROVIDER_MAPPER`), the vendor's (`ORGANIZATION`, `ORGANIZATION_MEMBERSHIP`,
 * `ORGANIZATION_ROLE`, `ORGANIZATION_ROLE_MAPPING`, `DOMAIN`), and `WEBHOOK`, which neither records.
 */
export const RESOURCE_TYPES = [
  'REALM',
  'USER',
  'REALM_ROLE_MAPPING',
  'CLIENT',
  'ORGANIZATION',
  'ORGANIZATION_MEMBERSHIP',
  'ORGANIZATION_ROLE',
  'ORGANIZATION_ROLE_MAPPING',
  'DOMAIN',
  'IDENTITY_PROVIDER',
  'IDENTITY_PROVIDER_MAPPER',
  'WEBHOOK',
] as const;
/** One resource type. */
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/**
 * Keycloak's event types of the sign-ins and token grants this service records (each also as
 * `<TYPE>_ERROR` when it failed): `LOGIN` (the login page and the password grant), `CLIENT_LOGIN`
 * (the client credentials grant of an API key), `CODE_TO_TOKEN` (an authorization code exchanged),
 * `REVOKE_GRANT` (a token revoked, RFC 7009).
 */
export const ACCESS_EVENT_TYPES = ['LOGIN', 'CLIENT_LOGIN', 'CODE_TO_TOKEN', 'REVOKE_GRANT'] as const;
/** One access event type, without its `_ERROR` form. */
export type AccessEventType = (typeof ACCESS_EVENT_TYPES)[number];

/** `admin.<RESOURCE>-<OPERATION>`, the vendor's `type` of an admin event. */
export const adminEventType = (resourceType: ResourceType, operation: OperationType): string => `admin.${resourceType}-${operation}`;

/** `access.<TYPE>` or `access.<TYPE>_ERROR`, the vendor's `type` of an access event. */
export const accessEventType = (type: AccessEventType, failed: boolean): string => `access.${type}${failed ? '_ERROR' : ''}`;

/** Who made a change or signed in, and from where (Keycloak's `AuthDetails`, with the vendor's `username`). */
export const AuthDetailsSchema = Type.Object({
  /** The realm the actor belongs to (always the event's realm here). */
  realmId: Type.String(),
  /** The client acted through: an API key's client id, a registered client, `dashboard`, `orgadmin-cli`. */
  clientId: Type.Optional(Type.String()),
  /** The user: an API key's service-account user or an end user. */
  userId: Type.Optional(Type.String()),
  /** The caller's address. */
  ipAddress: Type.Optional(Type.String()),
  /** The user's username, when known. */
  username: Type.Optional(Type.String()),
});
/** Who made a change and from where. */
export type AuthDetails = Static<typeof AuthDetailsSchema>;

/**
 * One event as the audit log answers it and webhooks deliver it. Fields without a value are left
 * out, as elsewhere in the contract.
 */
export const EventSchema = Type.Object({
  /** The event's id: the same in every delivery and redelivery of the event. */
  id: Type.String(),
  /** In a webhook delivery: the id of this webhook's send of the event (the same on redelivery); absent in the audit log. */
  uid: Type.Optional(Type.String()),
  /** When it happened, milliseconds since the epoch. */
  time: Type.Integer(),
  /** The realm's name (this service has no separate realm ids). */
  realmId: Type.String(),
  /** The realm's name. */
  realmName: Type.String(),
  /** `admin.<RESOURCE>-<OPERATION>` or `access.<TYPE>[_ERROR]`. */
  type: Type.String(),
  /** Admin events: what was done. */
  operationType: Type.Optional(Type.String()),
  /** Admin events: the kind of thing changed. */
  resourceType: Type.Optional(Type.String()),
  /** Admin events: the changed thing's path below the realm, e.g. `orgs/{id}/members/{userId}`. */
  resourcePath: Type.Optional(Type.String()),
  /** Admin events: the representation after the change as JSON text (the id for deletes); secrets never included. */
  representation: Type.Optional(Type.String()),
  /** Failed access events: why (the OAuth error code). */
  error: Type.Optional(Type.String()),
  /** More about the event (access events: `grant_type`, `username`, `redirect_uri`, …). */
  details: Type.Record(Type.String(), Type.String()),
  /** Who and from where. */
  authDetails: AuthDetailsSchema,
});
/** One event on the wire. */
export type EventRepresentation = Static<typeof EventSchema>;
/** A page of the audit log, newest first. */
export const EventListSchema = Type.Array(EventSchema);

/** Whether an event of `type` matches one of a webhook's event-type filters. */
export function eventTypeMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => {
    if (pattern === '*' || pattern === type) return true;
    if (!pattern.includes('*')) return false;
    const parts = pattern.split('*');
    // Glob match: the parts in order, the first at the start and the last at the end.
    if (!type.startsWith(parts[0]!) || !type.endsWith(parts[parts.length - 1]!)) return false;
    let at = parts[0]!.length;
    for (const part of parts.slice(1, -1)) {
      const found = type.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
    return at <= type.length - parts[parts.length - 1]!.length;
  });
}

/** The audit log's query (`GET /admin/realms/{realm}/events`). */
export const EventsQuerySchema = Type.Object({
  /** Event types to include: exact types or filters with `*` (as webhooks take them), comma-separated or repeated. */
  type: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  /** Only events whose resource path starts with this. */
  resourcePath: Type.Optional(Type.String({ maxLength: 2048 })),
  /** Only events of this actor: a client id or a user id. */
  actor: Type.Optional(Type.String({ maxLength: 255 })),
  /** Only events at or after this time: milliseconds since the epoch, or an ISO 8601 date or date-time. */
  dateFrom: Type.Optional(Type.String({ maxLength: 64 })),
  /** Only events before this time (a date alone: the whole of that day), same forms as `dateFrom`. */
  dateTo: Type.Optional(Type.String({ maxLength: 64 })),
  first: Type.Optional(Type.Integer({ minimum: 0 })),
  max: Type.Optional(Type.Integer({ minimum: 0 })),
});
/** The audit log's query. */
export type EventsQuery = Static<typeof EventsQuerySchema>;

/** The audit log's page size: default and cap. */
export const EVENTS_PAGE = { default: 100, cap: 1000 } as const;
