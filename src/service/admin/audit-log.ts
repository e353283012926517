/**
 * The audit log's queries, as the JSON API (`GET /admin/realms/{realm}/events`), the `orgadmin
 * events` command and the dashboard's events page ask them: filters by type, resource path
 * prefix, actor and time range, newest first, paged. Bad filters are 400 `invalid_query`.
 */
import { EVENTS_PAGE, eventTypePatternProblem, type EventRepresentation, type EventsQuery } from '../../api';
import { eventToWire } from '../events/event';
import { ServiceError } from '../errors';
import type { EventFilter } from '../store/event-store';
import type { Store } from '../store/store';

const invalidQuery = (description: string): ServiceError => new ServiceError(400, 'invalid_query', description);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A time of the query: milliseconds since the epoch, an ISO 8601 date-time, or a date (UTC). A date
 * alone as the end of a range means the end of that day, as Keycloak reads `dateTo`.
 */
export function parseEventTime(value: string, field: 'dateFrom' | 'dateTo'): number {
  if (/^\d{1,16}$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    if (!Number.isNaN(start)) return field === 'dateTo' ? start + DAY_MS : start;
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return time;
  }
  throw invalidQuery(`${field} "${value}" is neither milliseconds since the epoch nor an ISO 8601 date or date-time.`);
}

/** The type filters of the query: comma-separated or repeated, each checked. */
function typeFilters(type: string | string[] | undefined): string[] | undefined {
  if (type === undefined) return undefined;
  const types = (Array.isArray(type) ? type : [type]).flatMap((entry) => entry.split(',')).map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of types) {
    const problem = eventTypePatternProblem(entry);
    if (problem) throw invalidQuery(`type "${entry}" ${problem}.`);
  }
  return types.length > 0 ? types : undefined;
}

/** The store's filter for a query of the audit log. */
export function eventFilterOf(query: EventsQuery): EventFilter {
  const filter: EventFilter = {
    types: typeFilters(query.type),
    resourcePathPrefix: query.resourcePath === undefined || query.resourcePath === '' ? undefined : query.resourcePath.replace(/^\/+/, ''),
    actor: query.actor === undefined || query.actor === '' ? undefined : query.actor,
    from: query.dateFrom === undefined ? undefined : parseEventTime(query.dateFrom, 'dateFrom'),
    to: query.dateTo === undefined ? undefined : parseEventTime(query.dateTo, 'dateTo'),
    first: query.first ?? 0,
    max: Math.min(query.max ?? EVENTS_PAGE.default, EVENTS_PAGE.cap),
  };
  return filter;
}

/** The audit log over a {@link Store}. */
export class AuditLog {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** A page of a realm's events matching the query, newest first. */
  async list(realm: string, query: EventsQuery): Promise<EventRepresentation[]> {
    return (await this.store.events.list(realm, eventFilterOf(query))).map((event) => eventToWire(event));
  }

  /**
   * Deletes a realm's events older than its retention (nothing when it keeps them for ever), in
   * batches of `batch` with a turn of the event loop between them, so writes never wait for more
   * than one batch. Returns how many were deleted.
   */
  async prune(realm: string, batch = 500): Promise<number> {
    const days = await this.store.events.retentionDays(realm);
    if (days === null) return 0;
    const before = this.now() - days * DAY_MS;
    let total = 0;
    for (;;) {
      const deleted = await this.store.events.prune(realm, before, batch);
      total += deleted;
      if (deleted < batch) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
