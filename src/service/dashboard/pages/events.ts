/**
 * Events: the realm's audit log (admin changes, sign-ins, token grants) with the filters of the
 * JSON API and `orgadmin events list` (type, resource path prefix, actor, time range), newest
 * first, paged. Read through {@link AuditLog.list}, so the rules and messages are the same; a bad
 * filter answers 400 with the message above the form, which keeps what was typed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRepresentation, EventsQuery } from '../../../api';
import type { ServiceContext } from '../../context';
import { ServiceError } from '../../errors';
import { html, type Html } from '../../web/html';
import { field, offset } from '../form';
import { guarded, type DashboardCaller } from '../session-guard';
import { sectionPath, sendDashboard, when } from '../shell';

/** Events per page. */
const PAGE_SIZE = 50;

/** The filter fields, named as the JSON API's query parameters. */
const FILTERS = ['type', 'resourcePath', 'actor', 'dateFrom', 'dateTo'] as const;

/** Who acted and from where, as the table shows it. */
function actorOf(event: EventRepresentation): string {
  const { authDetails } = event;
  const who = authDetails.username ?? authDetails.userId ?? authDetails.clientId ?? '—';
  return authDetails.ipAddress === undefined ? who : `${who} (${authDetails.ipAddress})`;
}

function eventRow(event: EventRepresentation): Html {
  return html`<tr data-event-id="${event.id}"><td>${when(event.time)}</td><td><code>${event.type}</code></td>
<td>${event.resourcePath ? html`<code>${event.resourcePath}</code>` : (event.error ?? '—')}</td><td>${actorOf(event)}</td>
<td>${event.representation ? html`<details><summary>Show</summary><pre>${event.representation}</pre></details>` : '—'}</td></tr>`;
}

async function eventsPage(ctx: ServiceContext, reply: FastifyReply, caller: DashboardCaller, query: unknown): Promise<FastifyReply> {
  const values = Object.fromEntries(FILTERS.map((name) => [name, field(query, name)])) as Record<(typeof FILTERS)[number], string>;
  const first = offset(query);
  const filter: EventsQuery = { first, max: PAGE_SIZE + 1 };
  for (const name of FILTERS) if (values[name] !== '') filter[name] = values[name];
  let events: EventRepresentation[] = [];
  let error: string | undefined;
  try {
    events = await ctx.admin.events.list(caller.realm.name, filter);
  } catch (failure) {
    if (!(failure instanceof ServiceError) || failure.statusCode !== 400) throw failure;
    error = failure.message;
  }
  // One more than a page was asked for: whether there is a next page, without counting the log.
  const more = events.length > PAGE_SIZE;
  const path = sectionPath(caller.realm.name, 'events');
  const pageLink = (to: number) => `${path}?${new URLSearchParams({ ...values, first: String(to) }).toString()}`;
  const input = (name: (typeof FILTERS)[number], label: string, placeholder: string) =>
    html`<div><label for="filter-${name}">${label}</label><input type="text" id="filter-${name}" name="${name}" value="${values[name]}" placeholder="${placeholder}"></div>`;
  const body = html`<form method="get" action="${path}" id="event-filters">
<div class="row">${input('type', 'Types (comma-separated, * allowed)', 'admin.ORGANIZATION-*')}${input('resourcePath', 'Resource path starts with', 'orgs/')}${input('actor', 'Actor (client id or user id)', '')}</div>
<div class="row">${input('dateFrom', 'From (ISO 8601 or ms)', '2026-01-01')}${input('dateTo', 'Before (a date: the whole day)', '')}</div>
<p><button type="submit" class="secondary">Filter</button></p></form>
<table id="events"><thead><tr><th>Time</th><th>Type</th><th>Resource</th><th>Actor</th><th>After the change</th></tr></thead>
<tbody>${events.length === 0 ? html`<tr><td colspan="5" class="muted">No events${error ? '' : ' match'}.</td></tr>` : events.slice(0, PAGE_SIZE).map(eventRow)}</tbody></table>
<div class="pager">${first > 0 ? html`<a href="${pageLink(Math.max(0, first - PAGE_SIZE))}">Newer</a>` : ''}${more ? html`<a href="${pageLink(first + PAGE_SIZE)}">Older</a>` : ''}</div>`;
  return sendDashboard(reply, caller, 'events', { title: 'Events', body, status: error ? 400 : 200, error });
}

/** Registers the Events section. */
export function eventPages(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(
    '/realms/:realm/dashboard/events',
    guarded<FastifyRequest>(ctx, async (request, reply, caller) => eventsPage(ctx, reply, caller, request.query)),
  );
}
