/**
 * The frame of every dashboard page: navigation, who is signed in, the sign-out form, notices and
 * errors, and small shared pieces (CSRF field, dates, secret display with copy buttons).
 */
import type { FastifyReply } from 'fastify';
import { CSRF_FIELD } from '../auth/sessions';
import { dashboardPath, endSessionPath } from '../login-paths';
import { html, layout, sendPage, type Html } from '../web/html';
import type { DashboardCaller } from './session-guard';

/** The dashboard's sections. */
export type Section = 'api-keys' | 'users' | 'organizations' | 'settings' | 'events' | 'webhooks';

const SECTIONS: Array<[Section, string]> = [
  ['api-keys', 'API Keys'],
  ['users', 'Users'],
  ['organizations', 'Organizations'],
  ['settings', 'Realm settings'],
  ['events', 'Events'],
  ['webhooks', 'Webhooks'],
];

/** Fixed notices shown after a change (`?done=...`), so no text of the URL ends up on the page. */
const NOTICES: Record<string, string> = {
  revoked: 'The API key was revoked: it gets no new tokens, and the tokens it was given are refused.',
  permissions: 'The permissions were saved. Tokens issued before keep theirs until they expire.',
  'user-created': 'The user was created.',
  'user-disabled': 'The user was disabled.',
  'user-enabled': 'The user was enabled.',
  'member-added': 'The member was added.',
  'member-removed': 'The member was removed.',
  'role-granted': 'The role was granted.',
  'role-revoked': 'The role was revoked.',
  settings: 'The realm settings were saved.',
  'webhook-enabled': 'The webhook was turned on: events recorded from now on are delivered.',
  'webhook-disabled': 'The webhook was turned off: nothing is delivered to it until it is turned on.',
  'webhook-deleted': 'The webhook was deleted, with its delivery log.',
};

/** The path of a section (and sub-path) of a realm's dashboard. */
export const sectionPath = (realm: string, section: Section, rest = ''): string => `${dashboardPath(realm)}/${section}${rest}`;

/** The hidden CSRF field every form of a page carries. */
export const csrfField = (caller: DashboardCaller): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${caller.csrf}">`;

/** A date and time in UTC, or a dash. */
export const when = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');

/** A value shown once with a copy button. */
export const copyable = (id: string, label: string, value: string): Html =>
  html`<label for="${id}">${label}</label><div class="secret"><code id="${id}">${value}</code><button type="button" class="secondary" data-copy="${id}">Copy</button></div>`;

/** Sends a dashboard page. */
export function sendDashboard(
  reply: FastifyReply,
  caller: DashboardCaller,
  section: Section,
  opts: { title: string; body: Html; status?: number; error?: string; done?: unknown },
): FastifyReply {
  const realm = caller.realm.name;
  const nav = html`<nav>
<strong>orgadmin · ${realm}</strong>
${SECTIONS.map(([id, label]) => html`<a href="${sectionPath(realm, id)}" ${id === section ? html`aria-current="page"` : ''}>${label}</a>`)}
<span class="who">Signed in as <strong id="signed-in-as">${caller.user.username}</strong></span>
<form method="post" action="${endSessionPath(realm)}"><input type="hidden" name="${CSRF_FIELD}" value="${caller.logoutCsrf}"><button type="submit" class="secondary" id="sign-out">Sign out</button></form>
</nav>`;
  const notice = typeof opts.done === 'string' ? NOTICES[opts.done] : undefined;
  const body = html`<h1>${opts.title}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
${opts.body}`;
  return sendPage(reply, opts.status ?? 200, layout({ title: opts.title, nav, body }));
}
