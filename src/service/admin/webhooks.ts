/**
 * Webhooks as the JSON API (routes/webhooks.ts, the vendor's paths) and the dashboard reach them:
 * create, read, update, delete, their secret, their sends and resends. The rules are written here
 * once. Failures are the wire contract's {@link ServiceError}s (400 `invalid_body`, 404).
 */
import { randomUUID } from 'node:crypto';
import { eventTypePatternProblem, generateWebhookSecret, type WebhookInput } from '../../api';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';
import { webhookUrlProblem, type ResolveAll } from '../events/webhook-address';
import type { WebhookRecord, WebhookUpdate } from '../events/webhook-record';
import { notFound, ServiceError } from '../errors';
import type { DueSend } from '../store/event-store';
import type { Store } from '../store/store';

/** A new webhook and its secret (given, or made up when the body had none). */
export interface CreatedWebhook {
  webhook: WebhookRecord;
  secret: string;
}

/** Settings of {@link WebhookAdmin}. */
export interface WebhookAdminOptions {
  now: () => number;
  origin: ChangeOrigin;
  /** Whether URLs may reach loopback, link-local and private addresses. */
  allowPrivateAddresses: boolean;
  /** Name resolution of URL checks (tests inject one). @default the system resolver */
  resolveAll?: ResolveAll;
}

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);

/** `enabled` as the body has it (a boolean, or the vendor docs' strings), or undefined when absent. */
function enabledOf(input: WebhookInput): boolean | undefined {
  if (input.enabled === undefined) return undefined;
  return input.enabled === true || input.enabled === 'true';
}

/** Event-type filters as given, each checked; duplicates dropped. */
function eventTypesOf(types: string[]): string[] {
  for (const type of types) {
    const problem = eventTypePatternProblem(type);
    if (problem) throw invalidBody(`eventTypes entry "${type}" ${problem}.`);
  }
  return [...new Set(types)];
}

/** Webhooks over a {@link Store}. */
export class WebhookAdmin {
  constructor(
    private readonly store: Store,
    private readonly options: WebhookAdminOptions = { now: Date.now, origin: UNKNOWN_ORIGIN, allowPrivateAddresses: false },
  ) {}

  /** 400 unless `url` may be a webhook's URL (webhook-address.ts). */
  private async checkUrl(url: string): Promise<void> {
    const problem = await webhookUrlProblem(url, this.options.allowPrivateAddresses, this.options.resolveAll);
    if (problem) throw invalidBody(`url "${url}" ${problem}.`);
  }

  /**
   * Creates a webhook: enabled unless `enabled` is false, for every event unless `eventTypes` says
   * otherwise, signed with `secret` or a generated one. Receives only events recorded after it.
   */
  async create(realm: string, input: WebhookInput): Promise<CreatedWebhook> {
    await this.checkUrl(input.url);
    const secret = input.secret === undefined || input.secret === null || input.secret === '' ? generateWebhookSecret() : input.secret;
    const webhook: WebhookRecord = {
      id: randomUUID(),
      realm,
      url: input.url,
      secret,
      enabled: enabledOf(input) ?? true,
      eventTypes: input.eventTypes === undefined || input.eventTypes === null ? ['*'] : eventTypesOf(input.eventTypes),
      createdBy: this.options.origin.userId,
      createdTimestamp: this.options.now(),
    };
    await this.store.events.createWebhook(webhook, this.options.origin);
    return { webhook, secret };
  }

  /** A page of the realm's webhooks, oldest first. */
  async list(realm: string, first: number, max: number): Promise<WebhookRecord[]> {
    return this.store.events.listWebhooks(realm, first, max);
  }

  /** How many webhooks the realm has. */
  async count(realm: string): Promise<number> {
    return this.store.events.countWebhooks(realm);
  }

  /** One webhook, or 404. */
  async get(realm: string, id: string): Promise<WebhookRecord> {
    const webhook = await this.store.events.getWebhook(realm, id);
    if (!webhook) throw notFound(`Webhook ${id} does not exist.`);
    return webhook;
  }

  /**
   * Updates a webhook: `url` replaced; `enabled`, `eventTypes` and `secret` replaced when given
   * (an empty or absent secret keeps the old one, as the vendor does). 404 when it does not exist.
   */
  async update(realm: string, id: string, input: WebhookInput): Promise<WebhookRecord> {
    await this.checkUrl(input.url);
    const update: WebhookUpdate = { url: input.url };
    const enabled = enabledOf(input);
    if (enabled !== undefined) update.enabled = enabled;
    if (input.eventTypes !== undefined && input.eventTypes !== null) update.eventTypes = eventTypesOf(input.eventTypes);
    if (input.secret !== undefined && input.secret !== null && input.secret !== '') update.secret = input.secret;
    const webhook = await this.store.events.updateWebhook(realm, id, update, this.options.origin);
    if (!webhook) throw notFound(`Webhook ${id} does not exist.`);
    return webhook;
  }

  /** Deletes a webhook and its delivery log; 404 when it does not exist. */
  async delete(realm: string, id: string): Promise<void> {
    if (!(await this.store.events.deleteWebhook(realm, id, this.options.origin))) throw notFound(`Webhook ${id} does not exist.`);
  }

  /** A page of a webhook's sends, newest first; 404 for an unknown webhook. */
  async sends(realm: string, id: string, first: number, max: number): Promise<{ webhook: WebhookRecord; sends: Awaited<ReturnType<Store['events']['listSends']>> }> {
    const webhook = await this.get(realm, id);
    return { webhook, sends: await this.store.events.listSends(realm, id, first, max) };
  }

  /** One send with its event; 404 for an unknown webhook or send. */
  async send(realm: string, id: string, sendId: string): Promise<{ webhook: WebhookRecord; due: DueSend }> {
    const webhook = await this.get(realm, id);
    const due = await this.store.events.getSend(realm, id, sendId);
    if (!due) throw notFound(`Webhook ${id} has no send ${sendId}.`);
    return { webhook, due };
  }

  /** Sends a send's event again (same event id and send id), as soon as the webhook's earlier sends are through. */
  async resend(realm: string, id: string, sendId: string): Promise<void> {
    await this.get(realm, id);
    if (!(await this.store.events.resend(realm, id, sendId, this.options.now()))) throw notFound(`Webhook ${id} has no send ${sendId}.`);
  }
}
