/**
 * `orgadmin events list|tail`: the audit log of a realm on the service's data file, with the filters
 * of the JSON API (`GET /admin/realms/{realm}/events`): event types, resource path prefix, actor and
 * time range. `tail` prints the newest events and then follows new ones as they are recorded, by
 * any instance writing to the same data file or database.
 */
import type { EventRepresentation, EventsQuery } from '../../api';
import { eventFilterOf, parseEventTime } from '../../service/admin/audit-log';
import type { Admin } from '../../service/admin';
import { defineCommand, defineGroup } from '../command';
import { COMMON_FLAGS, resolveDataFile, withAdmin } from '../context';
import { CliError, EXIT, UsageError } from '../errors';
import type { CliIO } from '../io';
import { formatTimestamp, printJson, printTable } from '../output';

/** The filter flags both commands take, named after the JSON API's query parameters. */
const FILTER_FLAGS = {
  realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm whose events to show.' },
  type: {
    type: 'string',
    valueName: 'TYPES',
    description: 'Event types, comma-separated, each exact or with * (admin.ORGANIZATION-*, access.LOGIN_ERROR, admin.*).',
  },
  'resource-path': { type: 'string', valueName: 'PREFIX', description: 'Only events whose resource path starts with this (orgs/ID).' },
  actor: { type: 'string', valueName: 'ID', description: 'Only events of this actor: a client id (API key) or a user id.' },
  from: { type: 'string', valueName: 'TIME', description: 'Only events at or after this time: milliseconds since the epoch, an ISO 8601 date or date-time.' },
  to: { type: 'string', valueName: 'TIME', description: 'Only events before this time (a date alone: the whole of that day).' },
} as const;

/** Parses a whole number flag from `min` to `max` (a usage error otherwise). */
function parseCount(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not "${value}".`);
  }
  return Number(value);
}

/** The audit log query of the filter flags; bad filters are usage errors, found before the data file is opened. */
function queryOf(flags: { type?: string; 'resource-path'?: string; actor?: string; from?: string; to?: string }): EventsQuery {
  const query: EventsQuery = { type: flags.type, resourcePath: flags['resource-path'], actor: flags.actor, dateFrom: flags.from, dateTo: flags.to };
  try {
    eventFilterOf(query);
  } catch (error) {
    // The audit log's own rules (admin/audit-log.ts) word the problem; the flag names differ from the query's.
    const message = (error as Error).message.replace(/^dateFrom/, '--from').replace(/^dateTo/, '--to').replace(/^type/, '--type');
    throw new UsageError(message.replace(/\.$/, ''));
  }
  return query;
}

/** Fails with one sentence when the realm does not exist (the audit log of no realm is not empty, it is a typo). */
async function requireRealm(admin: Admin, realm: string): Promise<void> {
  if (!(await admin.getRealm(realm))) throw new CliError(`Realm "${realm}" does not exist.`);
}

/** Who acted, for tables: the username, the user id or the client id, and the address. */
function actorOf(event: EventRepresentation): string {
  const { authDetails } = event;
  const who = authDetails.username ?? authDetails.userId ?? authDetails.clientId ?? '-';
  return authDetails.ipAddress === undefined ? who : `${who}@${authDetails.ipAddress}`;
}

/** One event as a table row: time, type, resource path (or error), actor. */
function rowOf(event: EventRepresentation): string[] {
  return [formatTimestamp(event.time), event.type, event.resourcePath ?? event.error ?? '', actorOf(event)];
}

const HEADERS = ['TIME', 'TYPE', 'RESOURCE', 'ACTOR'] as const;

const list = defineCommand(
  {
    command: 'events list',
    summary: "Lists a realm's events (the audit log), newest first.",
    flags: {
      ...FILTER_FLAGS,
      first: { type: 'string', valueName: 'N', description: 'Events to skip (paging; default 0).' },
      max: { type: 'string', valueName: 'N', description: 'Events to show, 1 to 1000 (default 100).' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const query: EventsQuery = {
      ...queryOf(flags),
      first: parseCount('first', flags.first, 0, Number.MAX_SAFE_INTEGER),
      max: parseCount('max', flags.max, 1, 1000),
    };
    const dataFile = resolveDataFile(flags.data, io);
    const events = await withAdmin(dataFile, async (admin) => {
      await requireRealm(admin, flags.realm);
      return admin.events.list(flags.realm, query);
    });
    if (flags.json) printJson(io, events);
    else printTable(io, HEADERS, events.map(rowOf), `No events in realm ${flags.realm} match.`);
    return EXIT.ok;
  },
);

/**
 * How far back each poll of `tail` looks again: on PostgreSQL a transaction may commit an event
 * stamped a little before events already seen, so the poll overlaps the past and skips ids it printed.
 */
const TAIL_OVERLAP_MS = 60_000;

/** Waits `ms` or until the process is asked to stop (Ctrl-C); true when asked to stop. */
function pause(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      process.off('SIGINT', stop);
      resolve(false);
    }, ms);
    process.once('SIGINT', stop);
  });
}

/** Prints events oldest first, as table lines or one JSON document per line. */
function printFollowed(io: CliIO, events: readonly EventRepresentation[], json: boolean): void {
  for (const event of events) io.stdout(json ? `${JSON.stringify(event)}\n` : `${rowOf(event).join('  ')}\n`);
}

const tail = defineCommand(
  {
    command: 'events tail',
    summary: "Prints a realm's newest events, then follows new ones until interrupted.",
    flags: {
      ...FILTER_FLAGS,
      lines: { type: 'string', valueName: 'N', description: 'Newest events to print first, 0 to 1000 (default 10).' },
      interval: { type: 'string', valueName: 'MS', description: 'How often to look for new events, 10 to 60000 ms (default 1000).' },
      count: { type: 'string', valueName: 'N', description: 'Stop after printing this many events (default: follow until interrupted).' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const query = queryOf(flags);
    const lines = parseCount('lines', flags.lines, 0, 1000) ?? 10;
    const interval = parseCount('interval', flags.interval, 10, 60_000) ?? 1000;
    const count = parseCount('count', flags.count, 1, Number.MAX_SAFE_INTEGER);
    const json = flags.json === true;
    const dataFile = resolveDataFile(flags.data, io);
    await withAdmin(dataFile, async (admin) => {
      await requireRealm(admin, flags.realm);
      let printed = 0;
      const emit = (events: EventRepresentation[]): void => {
        const shown = count === undefined ? events : events.slice(0, count - printed);
        printFollowed(io, shown, json);
        printed += shown.length;
      };
      const floor = query.dateFrom === undefined ? 0 : parseEventTime(query.dateFrom, 'dateFrom');
      const recentSince = (since: number): Promise<EventRepresentation[]> =>
        admin.events.list(flags.realm, { ...query, dateFrom: String(Math.max(floor, since - TAIL_OVERLAP_MS)), max: 1000 });
      // Ids already there (printed or not) within the overlap window, with their times, so a poll
      // prints only events recorded after the start, each once. The newest are read after this
      // snapshot, so an event recorded in between is printed by them rather than lost.
      let since = (await admin.events.list(flags.realm, { max: 1 }))[0]?.time ?? 0;
      const seen = new Map<string, number>((await recentSince(since)).map((event) => [event.id, event.time]));
      const newest = lines === 0 ? [] : await admin.events.list(flags.realm, { ...query, max: lines });
      for (const event of newest) seen.set(event.id, event.time);
      emit([...newest].reverse());
      while (count === undefined || printed < count) {
        if (await pause(interval)) return;
        const recent = await recentSince(since);
        const fresh = recent.filter((event) => !seen.has(event.id)).reverse();
        for (const event of fresh) {
          seen.set(event.id, event.time);
          since = Math.max(since, event.time);
        }
        for (const [id, time] of seen) if (time < since - TAIL_OVERLAP_MS) seen.delete(id);
        emit(fresh);
      }
    });
    return EXIT.ok;
  },
);

/** `orgadmin events ...` */
export const runEventsCommand = defineGroup('events', "Show a realm's audit log: admin changes, sign-ins and token grants.", { list, tail });
