/**
 * `orgadmin_webhook`: a webhook of a realm (the vendor's `/realms/{realm}/webhooks`), which the
 * service posts signed events to. Everything but the realm updates in place.
 *
 * The signing secret is write-only (`secret_wo`, Terraform 1.11+): it goes from the configuration
 * to the service and never into plan or state. Terraform cannot see a change of a write-only
 * value, so `secret_wo_version` says when to send it: a create sends it, and so does an update
 * that changes the version. Without `secret_wo` the create sends a generated secret, readable
 * through `GET /realms/{realm}/webhooks/{id}/secret` (the `orgadmin_webhook` docs say how).
 *
 * The webhook's id is the service's to choose, so a create whose answer was lost is settled by its
 * secret: the webhook with this create's URL, filters and secret, stamped after the create began,
 * is its own; anything else fails the create as before and is never taken over.
 */
import { timingSafeEqual } from 'node:crypto';
import type { WebhookRepresentation } from '../../api';
// The rules, not the wire schemas: the provider's unconfigured processes must not load those.
import { eventTypePatternProblem, generateWebhookSecret, MAX_EVENT_TYPE_PATTERNS, MAX_WEBHOOK_SECRET_LENGTH, urlProblem } from '../../api/validation';
import type { WebhookInput } from '../../client';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { parseImportId, type ImportIdForm } from '../import-id';
import { outcomeUnknown } from '../outcome';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringList, quote, sameStringSet } from '../values';
import type { Diagnostics, ObjectValue, Resource } from '../../tfplugin/framework/types';
import { isUnknown } from '../../tfplugin/protocol/unknown';
import { target } from './organization-creation';

/** The resource's type name. */
export const WEBHOOK_RESOURCE_TYPE = 'orgadmin_webhook';

/** How a webhook is imported: by its id, or `REALM/ID`. */
export const WEBHOOK_IMPORT_ID: ImportIdForm = { typeName: WEBHOOK_RESOURCE_TYPE, segments: ['WEBHOOK_ID'], example: '3b0f7c2e-9a41-4d1e-8c55-0f6e2d7a9b13' };

/** The event-type filters of a webhook the configuration leaves them out of: every event. */
const ALL_EVENTS = ['*'];

/** Checks the attributes a plan can check without the service (the URL's reachability is the service's to judge). */
function validateWebhookConfig(config: ObjectValue, diags: Diagnostics): void {
  const url = knownString(config['url']);
  if (url !== undefined) {
    const problem = urlProblem(url);
    if (problem) diags.error('Invalid webhook URL', `\`url\` ${quote(url)} ${problem}.`, ['url']);
  }
  const types = knownStringList(config['event_types']);
  if (types !== undefined) {
    if (types.length === 0) diags.error('No event types', '`event_types` is empty, so the webhook would get nothing. Leave it out for every event (`["*"]`).', ['event_types']);
    if (types.length > MAX_EVENT_TYPE_PATTERNS) diags.error('Too many event types', `\`event_types\` has ${types.length} entries; at most ${MAX_EVENT_TYPE_PATTERNS} are allowed.`, ['event_types']);
    for (const type of types) {
      const problem = eventTypePatternProblem(type);
      if (problem) diags.error('Invalid event type', `The event type ${quote(type)} ${problem}.`, ['event_types']);
    }
  }
  const secret = config['secret_wo'];
  // The secret's value never appears in a diagnostic: only its length does.
  if (typeof secret === 'string' && (secret === '' || secret.length > MAX_WEBHOOK_SECRET_LENGTH)) {
    diags.error('Invalid webhook secret', `\`secret_wo\` must have 1 to ${MAX_WEBHOOK_SECRET_LENGTH} characters (it has ${secret.length}).`, ['secret_wo']);
  }
  if ((config['secret_wo_version'] ?? null) !== null && !isUnknown(config['secret_wo_version']) && (secret ?? null) === null) {
    diags.error('Missing secret_wo', '`secret_wo_version` says when to send `secret_wo` again: set `secret_wo` too.', ['secret_wo_version']);
  }
  validateRealm(config['realm'], diags);
}

/** The state of a webhook as the service holds it; the write-only pair is the configuration's (the version is kept from `prior`). */
function stateFromWebhook(webhook: WebhookRepresentation, realm: string, prior: ObjectValue | null): ObjectValue {
  return {
    id: webhook.id,
    realm: webhook.realm || realm,
    url: webhook.url,
    event_types: [...webhook.eventTypes],
    enabled: webhook.enabled,
    secret_wo: null,
    secret_wo_version: prior?.['secret_wo_version'] ?? null,
  };
}

/** The body of create and update; the secret only when it is to be sent. */
function webhookInput(planned: ObjectValue, config: ObjectValue, sendSecret: boolean): WebhookInput {
  const input: WebhookInput = {
    url: knownString(planned['url']) ?? '',
    enabled: planned['enabled'] !== false,
    eventTypes: knownStringList(planned['event_types']) ?? ALL_EVENTS,
  };
  const secret = knownString(config['secret_wo']);
  if (sendSecret && secret !== undefined) input.secret = secret;
  return input;
}

/**
 * How long before its request a create's webhook may have been stamped by the service: the
 * service's clock is not this machine's, and the window only narrows the candidates (the secret
 * is the proof).
 */
const CLOCK_SKEW_MS = 5 * 60_000;

/** How many webhooks one list request asks for while looking for a create's own webhook. */
const LIST_PAGE = 100;

/**
 * The id of the webhook that the create of `input` made when its answer was lost, or undefined
 * when there is none or more than one candidate: a webhook with the input's URL, filters and
 * switch, stamped after the create began (less {@link CLOCK_SKEW_MS}), whose secret is the
 * create's. Nothing else is adopted, so a webhook somebody else made is never taken over.
 */
async function createdWebhook(ctx: OrgAdminProviderContext, realm: string, input: WebhookInput, startedAt: number, signal: AbortSignal | undefined): Promise<string | undefined> {
  const options = callOptions(realm, signal);
  const candidates: WebhookRepresentation[] = [];
  for (let first = 0; ; first += LIST_PAGE) {
    const page = await ctx.client.listWebhooks({ first, max: LIST_PAGE }, options);
    candidates.push(
      ...page.filter(
        (webhook) =>
          webhook.url === input.url &&
          webhook.enabled === (input.enabled !== false) &&
          sameStringSet(webhook.eventTypes, input.eventTypes ?? ALL_EVENTS) &&
          webhook.createdAt >= startedAt - CLOCK_SKEW_MS,
      ),
    );
    if (page.length < LIST_PAGE) break;
  }
  const expected = Buffer.from(input.secret ?? '');
  const own: string[] = [];
  for (const candidate of candidates) {
    const secret = Buffer.from(await ctx.client.getWebhookSecret(candidate.id, options));
    if (secret.length === expected.length && timingSafeEqual(secret, expected)) own.push(candidate.id);
  }
  return own.length === 1 ? own[0] : undefined;
}

/** The `orgadmin_webhook` resource. */
export const webhookResource: Resource<OrgAdminProviderContext> = {
  typeName: WEBHOOK_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'A webhook of a realm: the service posts every matching event (admin changes, sign-ins, token grants) to `url`, ' +
      'signed with HMAC-SHA-256 in the `X-Keycloak-Signature` header, at least once and in order per webhook, retrying ' +
      'with exponential backoff.\n\n' +
      'The signing secret is write-only: set `secret_wo` (Terraform 1.11 or later) and it is sent to the service but never ' +
      'stored in plan or state. Terraform cannot see a change of a write-only value, so change `secret_wo_version` to send ' +
      'a new secret. Without `secret_wo` the create sends a random secret (32 bytes); read it with ' +
      '`GET /realms/{realm}/webhooks/{id}/secret` (permission `manage-events`).\n\n' +
      'Import by `ID` or `REALM/ID`, e.g. `terraform import orgadmin_webhook.example 3b0f7c2e-…`; the secret stays as it ' +
      'is on the service until a `secret_wo_version` is set.',
    attributes: {
      id: { type: 'string', computed: true, useStateForUnknown: true, description: 'The webhook\'s id, assigned by the service.' },
      realm: resourceRealmAttribute,
      url: {
        type: 'string',
        required: true,
        description:
          'Where events are posted: an absolute `http` or `https` URL. The service refuses loopback, link-local and private ' +
          'addresses unless it runs with `--allow-private-webhooks`.',
      },
      event_types: {
        type: ['set', 'string'],
        optional: true,
        computed: true,
        description:
          'Event-type filters: exact types or `*` for any run of characters, e.g. `["admin.ORGANIZATION-*", ' +
          '"admin.ORGANIZATION_MEMBERSHIP-*", "access.LOGIN_ERROR"]`. Default `["*"]`, every event.',
      },
      enabled: { type: 'bool', optional: true, computed: true, description: 'Whether events are delivered. Default `true`.' },
      secret_wo: {
        type: 'string',
        optional: true,
        sensitive: true,
        writeOnly: true,
        description:
          'The signing secret, 1 to 1024 characters (write-only: never stored in plan or state). Sent on create and when ' +
          '`secret_wo_version` changes. Left out: a random one is generated on create.',
      },
      secret_wo_version: {
        type: 'number',
        optional: true,
        description: 'Any number; changing it sends `secret_wo` to the service again (how a new secret is rolled out).',
      },
    },
  },

  validate(config, diags) {
    validateWebhookConfig(config, diags);
  },

  async modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    // Left out, the filters and the switch have their defaults: removing them from the configuration restores those.
    if ((req.config['event_types'] ?? null) === null) plan.plannedState['event_types'] = [...ALL_EVENTS];
    if ((req.config['enabled'] ?? null) === null) plan.plannedState['enabled'] = true;
  },

  async create(ctx, req, diags) {
    const planned = req.plannedState;
    const realm = knownString(planned['realm']) ?? ctx.realm;
    const signal = signalOf(req);
    const input = webhookInput(planned, req.config, true);
    // The create's proof of authorship when its answer is lost: a webhook's id is the service's to
    // choose, but its secret is this create's. Without `secret_wo`, one is made here as the service
    // would make it (readable through GET …/secret all the same).
    input.secret ??= generateWebhookSecret();
    const startedAt = ctx.clock.now();
    let id: string;
    try {
      try {
        id = await ctx.client.createWebhook(input, callOptions(realm, signal));
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        const own = await createdWebhook(ctx, realm, input, startedAt, signal).catch(() => undefined);
        if (own === undefined) throw error;
        ctx.logger.info('a webhook create got no answer; a webhook with this create\'s secret is there, so it was created', { realm, id: own });
        id = own;
      }
    } catch (error) {
      reportError(diags, error, { action: 'create webhook', target: target(realm, undefined, input.url), permission: 'manage-events' }, reportingFor(ctx, realm));
      return null;
    }
    ctx.logger.info('created webhook', { realm, id });
    return { ...planned, id, realm };
  },

  async read(ctx, req, diags) {
    const state = req.state;
    const id = knownString(state['id']) ?? '';
    const realm = knownString(state['realm']) ?? ctx.realm;
    try {
      return stateFromWebhook(await ctx.client.getWebhook(id, callOptions(realm, signalOf(req))), realm, state);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning('Webhook removed outside Terraform', `The webhook ${target(realm, id)} no longer exists. It is removed from the state; the next plan creates it again.`);
        return null;
      }
      reportError(diags, error, { action: 'read webhook', target: target(realm, id), permission: 'view-events' }, reportingFor(ctx, realm));
      return state;
    }
  },

  async update(ctx, req, diags) {
    const planned = req.plannedState;
    const id = knownString(req.priorState['id']) ?? '';
    const realm = knownString(req.priorState['realm']) ?? ctx.realm;
    // Only a new version sends the secret: an update without one keeps the service's secret.
    const input = webhookInput(planned, req.config, planned['secret_wo_version'] !== req.priorState['secret_wo_version']);
    try {
      await ctx.client.updateWebhook(id, input, callOptions(realm, signalOf(req)));
    } catch (error) {
      reportError(diags, error, { action: 'update webhook', target: target(realm, id, input.url), permission: 'manage-events' }, reportingFor(ctx, realm));
      return null;
    }
    return { ...planned, id, realm };
  },

  async delete(ctx, req, diags) {
    const id = knownString(req.priorState['id']) ?? '';
    const realm = knownString(req.priorState['realm']) ?? ctx.realm;
    try {
      await ctx.client.deleteWebhook(id, callOptions(realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return; // already gone: the goal of delete
      reportError(diags, error, { action: 'delete webhook', target: target(realm, id), permission: 'manage-events' }, reportingFor(ctx, realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, WEBHOOK_IMPORT_ID, diags);
    if (!parsed) return null;
    const realm = parsed.realm ?? ctx.realm;
    const id = parsed.ids[0]!;
    try {
      return stateFromWebhook(await ctx.client.getWebhook(id, callOptions(realm, signalOf(req))), realm, null);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.error('Cannot import webhook', `There is no webhook with id ${quote(id)} in realm ${quote(realm)}. Check the id (and the realm: import by \`REALM/ID\` for another realm than the provider's).`);
      } else {
        reportError(diags, error, { action: 'import webhook', target: target(realm, id), permission: 'view-events' }, reportingFor(ctx, realm));
      }
      return null;
    }
  },
};
