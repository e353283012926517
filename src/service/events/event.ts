/**
 * Events as the service keeps them: who did what to which resource, or who signed in, and how each
 * becomes the wire's {@link EventRepresentation}. The stores write them (store/sqlite-events.ts,
 * store/postgres-events.ts) in the same transaction as the change they describe.
 */
import { randomUUID } from 'node:crypto';
import {
  accessEventType,
  adminEventType,
  type AccessEventType,
  type EventRepresentation,
  type OperationType,
  type ResourceType,
} from '../../api';

/** Who made a change or signed in, and from where (Keycloak's `AuthDetails`). */
export interface ChangeOrigin {
  /** The client acted through: an API key's client id, a registered client, {@link DASHBOARD_ORIGIN_CLIENT}, {@link CLI_ORIGIN_CLIENT}. */
  readonly clientId: string | null;
  /** The user: an API key's service-account user id or an end user's id. */
  readonly userId: string | null;
  /** The user's username, when known without a lookup. */
  readonly username?: string | null;
  /** The caller's address. */
  readonly ipAddress: string | null;
}

/** The client id of changes made with the `orgadmin` command on the service's own database. */
export const CLI_ORIGIN_CLIENT = 'orgadmin-cli';

/** Changes made through the store with no origin given (tests, embedding code): nobody known. */
export const UNKNOWN_ORIGIN: ChangeOrigin = { clientId: null, userId: null, ipAddress: null };

/** The origin of the `orgadmin` command's changes. */
export const CLI_ORIGIN: ChangeOrigin = { clientId: CLI_ORIGIN_CLIENT, userId: null, ipAddress: null };

/** An event to record: everything but its place in the log. */
export interface NewEvent {
  /** A UUID, the same in every delivery. */
  readonly id: string;
  readonly realm: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** `admin.<RESOURCE>-<OPERATION>` or `access.<TYPE>[_ERROR]`. */
  readonly type: string;
  readonly operationType: OperationType | null;
  readonly resourceType: ResourceType | null;
  /** The changed thing's path below the realm (`orgs/{id}`), null for access events. */
  readonly resourcePath: string | null;
  /** JSON text of the representation after the change (secrets never included), or null. */
  readonly representation: string | null;
  /** Failed access events: the OAuth error code. */
  readonly error: string | null;
  readonly details: Readonly<Record<string, string>>;
  readonly origin: ChangeOrigin;
}

/** A recorded event: a {@link NewEvent} with its place in the log. */
export interface StoredEvent extends NewEvent {
  /** Order of recording (increasing; on PostgreSQL not strictly the order of commit). */
  readonly seq: number;
}

/** What a change tells about itself; the store adds the realm's clock, the id and the origin. */
export interface ChangeDescription {
  readonly resourceType: ResourceType;
  readonly operation: OperationType;
  /** The changed thing's path below the realm, e.g. `orgs/{id}/members/{userId}` (Keycloak's resourcePath). */
  readonly resourcePath: string;
  /** The representation after the change, or the id of a deleted thing (as the vendor records deletes). Never a secret. */
  readonly representation: unknown;
}

/** The event of a change of `realm` made by `origin` at `time`. */
export function adminEvent(realm: string, change: ChangeDescription, origin: ChangeOrigin, time: number): NewEvent {
  return {
    id: randomUUID(),
    realm,
    time,
    type: adminEventType(change.resourceType, change.operation),
    operationType: change.operation,
    resourceType: change.resourceType,
    resourcePath: change.resourcePath,
    representation: change.representation === undefined ? null : JSON.stringify(change.representation),
    error: null,
    details: {},
    origin,
  };
}

/** What a sign-in or token grant tells about itself. */
export interface AccessDescription {
  readonly type: AccessEventType;
  /** The OAuth error code when it failed. */
  readonly error?: string;
  readonly details?: Readonly<Record<string, string>>;
}

/** The event of a sign-in or token grant in `realm`. */
export function accessEvent(realm: string, access: AccessDescription, origin: ChangeOrigin, time: number): NewEvent {
  return {
    id: randomUUID(),
    realm,
    time,
    type: accessEventType(access.type, access.error !== undefined),
    operationType: null,
    resourceType: null,
    resourcePath: null,
    representation: null,
    error: access.error ?? null,
    details: access.details ?? {},
    origin,
  };
}

/** The wire form of a recorded event; `uid` is a webhook send's id in deliveries. */
export function eventToWire(event: NewEvent, uid?: string): EventRepresentation {
  const { origin } = event;
  const authDetails: EventRepresentation['authDetails'] = { realmId: event.realm };
  if (origin.clientId !== null) authDetails.clientId = origin.clientId;
  if (origin.userId !== null) authDetails.userId = origin.userId;
  if (origin.ipAddress !== null) authDetails.ipAddress = origin.ipAddress;
  if (origin.username !== undefined && origin.username !== null) authDetails.username = origin.username;
  const wire: EventRepresentation = {
    id: event.id,
    time: event.time,
    realmId: event.realm,
    realmName: event.realm,
    type: event.type,
    details: { ...event.details },
    authDetails,
  };
  if (uid !== undefined) wire.uid = uid;
  if (event.operationType !== null) wire.operationType = event.operationType;
  if (event.resourceType !== null) wire.resourceType = event.resourceType;
  if (event.resourcePath !== null) wire.resourcePath = event.resourcePath;
  if (event.representation !== null) wire.representation = event.representation;
  if (event.error !== null) wire.error = event.error;
  return wire;
}
