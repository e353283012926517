/**
 * The `Webhook` construct: the service posts the realm's events, signed, to a URL
 * (`orgadmin_webhook`). The signing secret goes to the write-only `secret_wo`: Terraform sends it
 * and never stores it in plan or state. It must come from a token (a sensitive variable, another
 * resource's output), never a literal, which would be written into the synthesized `cdk.tf.json`.
 */
import { Construct } from 'constructs';
import { eventTypePatternProblem, MAX_EVENT_TYPE_PATTERNS } from '../api/validation';
import type { TerraformProvider } from './toolkit';
import { Webhook as WebhookResource } from './gen/webhook';
import { Problems, checkHttpUrl, checkRealm, isUnresolved, quote } from './validation';

/** Props of {@link Webhook}. */
export interface WebhookProps {
  /** Where events are posted: an absolute http or https URL. */
  readonly url: string;
  /**
   * Event-type filters, exact or with `*` (`admin.ORGANIZATION-*`, `access.LOGIN_ERROR`).
   * @default every event (`["*"]`)
   */
  readonly eventTypes?: string[];
  /** @default true */
  readonly enabled?: boolean;
  /**
   * The signing secret, as a token (`new TerraformVariable(this, 'webhook_secret', { sensitive: true }).stringValue`).
   * @default a random secret generated on create (read it through `GET /realms/{realm}/webhooks/{id}/secret`)
   */
  readonly secret?: string;
  /**
   * Change it to send `secret` to the service again (a new secret rolled out); Terraform cannot
   * see a change of a write-only value itself.
   * @default none: the secret is sent on create only
   */
  readonly secretVersion?: number;
  /** @default the provider's realm */
  readonly realm?: string;
  /** @default the stack's default orgadmin provider */
  readonly provider?: TerraformProvider;
}

/**
 * A webhook of a realm.
 *
 * @example
 * const secret = new TerraformVariable(stack, 'webhook_secret', { type: 'string', sensitive: true });
 * new Webhook(stack, 'drift', { url: 'https://ci.example.com/hooks/orgadmin', eventTypes: ['admin.ORGANIZATION-*'], secret: secret.stringValue, secretVersion: 1 });
 */
export class Webhook extends Construct {
  /** The webhook's id (a token until applied). */
  readonly webhookId: string;
  /** The `orgadmin_webhook` resource behind this construct. */
  readonly resource: WebhookResource;

  /** @throws ConstructValidationError when the URL, a filter or the secret props cannot work. */
  constructor(scope: Construct, id: string, props: WebhookProps) {
    const problems = new Problems();
    if (!isUnresolved(props.url) && (typeof props.url !== 'string' || props.url === '')) problems.add(`url must not be empty (got ${quote(props.url)}).`);
    else checkHttpUrl(props.url, problems, 'url');
    if (props.eventTypes !== undefined && !isUnresolved(props.eventTypes)) {
      if (props.eventTypes.length === 0) problems.add('eventTypes is empty, so the webhook would get nothing; leave it out for every event.');
      if (props.eventTypes.length > MAX_EVENT_TYPE_PATTERNS) problems.add(`eventTypes has ${props.eventTypes.length} entries; at most ${MAX_EVENT_TYPE_PATTERNS} are allowed.`);
      for (const type of props.eventTypes) {
        const problem = isUnresolved(type) ? undefined : eventTypePatternProblem(type);
        if (problem) problems.add(`eventTypes entry ${quote(type)} ${problem}.`);
      }
    }
    // A literal secret would be written into cdk.tf.json; its value is never quoted here.
    if (props.secret !== undefined && !isUnresolved(props.secret)) {
      problems.add('secret must be a token (a sensitive TerraformVariable, another resource\'s output), not a literal: a literal is written into the synthesized cdk.tf.json.');
    }
    if (props.secretVersion !== undefined && props.secret === undefined) problems.add('secretVersion says when to send secret again: give secret too.');
    checkRealm(props.realm, problems);
    problems.throwIfAny(`${scope.node.path}/${id}`);
    super(scope, id);
    this.resource = new WebhookResource(this, 'Default', {
      url: props.url,
      eventTypes: props.eventTypes,
      enabled: props.enabled,
      secretWo: props.secret,
      secretWoVersion: props.secretVersion,
      realm: props.realm,
      provider: props.provider,
    });
    this.webhookId = this.resource.id;
  }
}
