/**
 * A webhook receiver that starts the drift check as soon as something changes outside the
 * pipeline, instead of waiting for the schedule. Point an `orgadmin_webhook` (or `POST
 * /realms/{realm}/webhooks`) at it; it
 *
 * 1. verifies each delivery's `X-Keycloak-Signature` (HMAC-SHA-256 of the raw body) and answers
 *    401 to anything else, at once, before parsing;
 * 2. answers 202 at once (the service waits for the answer, so work happens after it), and keeps
 *    only events that can drift a GitOps configuration: organizations and memberships by default;
 * 3. ignores an event id it has seen (delivery is at least once: a redelivery repeats its `id`);
 * 4. waits until no relevant event came for `debounceMs` (a burst of changes makes one run, not
 *    one per change), then starts the pipeline once through its trigger: a generic URL, GitHub's
 *    `repository_dispatch`, or a GitLab pipeline trigger.
 *
 * ```sh
 * ORGADMIN_WEBHOOK_SECRET=... TRIGGER=github GITHUB_REPOSITORY=acme/org-config GITHUB_TOKEN=... \
 *   node --require ./examples/register.js examples/gitops/webhook-receiver.ts
 * ```
 *
 * Settings (environment): `PORT` (default 8787), `ORGADMIN_WEBHOOK_SECRET` (required: the
 * webhook's secret), `DEBOUNCE_SECONDS` (default 30), `EVENT_TYPES` (comma-separated filters with
 * `*`; default `admin.ORGANIZATION-*,admin.ORGANIZATION_MEMBERSHIP-*`), `TRIGGER` = `generic`
 * (`TRIGGER_URL`, optional `TRIGGER_TOKEN` sent as a bearer token), `github` (`GITHUB_REPOSITORY`
 * owner/name, `GITHUB_TOKEN` with the repository's contents write permission, optional
 * `GITHUB_API_URL`, `GITHUB_EVENT_TYPE` default `orgadmin-drift`) or `gitlab` (`GITLAB_PROJECT` id
 * or path, `GITLAB_TRIGGER_TOKEN`, `GITLAB_REF` default `main`, optional `GITLAB_URL`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { eventTypeMatches, type EventRepresentation } from '../../src/api/events';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../../src/api/webhooks';

/** What a trigger is told: the relevant events of the burst that started it. */
export interface DriftReason {
  /** Event ids, oldest first. */
  readonly eventIds: string[];
  /** Their types, each once. */
  readonly types: string[];
}

/** Starts the pipeline; rejects when the CI answered with an error. */
export type Trigger = (reason: DriftReason) => Promise<void>;

/** Schedules `run` after `ms`; returns a function that cancels it. Tests pass one they fire themselves. */
export type Schedule = (run: () => void, ms: number) => () => void;

/** Options of {@link createDriftReceiver}. */
export interface DriftReceiverOptions {
  /** The webhook's signing secret. */
  readonly secret: string;
  /** Starts the pipeline. */
  readonly trigger: Trigger;
  /** Quiet time after the last relevant event before the pipeline starts. @default 30000 */
  readonly debounceMs?: number;
  /** Event-type filters of relevant events. @default {@link DRIFT_EVENT_TYPES} */
  readonly eventTypes?: readonly string[];
  /** @default setTimeout */
  readonly schedule?: Schedule;
  /** Told about a trigger that failed (the next relevant event tries again). @default console.error */
  readonly onTriggerError?: (error: unknown) => void;
}

/** The events that can make a GitOps configuration of organizations drift. */
export const DRIFT_EVENT_TYPES = ['admin.ORGANIZATION-*', 'admin.ORGANIZATION_MEMBERSHIP-*'] as const;

/** Event ids remembered for deduplication (redeliveries come soon after the first delivery). */
const REMEMBERED_IDS = 10_000;

/** The longest delivery body read; an event is far smaller. */
const MAX_BODY_BYTES = 1024 * 1024;

const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** A running receiver. */
export interface DriftReceiver {
  /** The HTTP server (not listening yet: call `listen`). */
  readonly server: Server;
  /** Relevant events waiting for the quiet time to end. */
  pending(): number;
}

/** Reads a request's body as bytes, refusing one larger than {@link MAX_BODY_BYTES}. */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Creates the receiver's HTTP server. */
export function createDriftReceiver(options: DriftReceiverOptions): DriftReceiver {
  const debounceMs = options.debounceMs ?? 30_000;
  const eventTypes = options.eventTypes ?? DRIFT_EVENT_TYPES;
  const schedule = options.schedule ?? realSchedule;
  const onTriggerError = options.onTriggerError ?? ((error: unknown) => console.error('drift trigger failed:', error));
  const seen = new Set<string>();
  let batch: EventRepresentation[] = [];
  let cancel: (() => void) | undefined;

  const fire = (): void => {
    cancel = undefined;
    const events = batch;
    batch = [];
    const reason: DriftReason = { eventIds: events.map((event) => event.id), types: [...new Set(events.map((event) => event.type))] };
    options.trigger(reason).catch(onTriggerError);
  };

  const accept = (event: EventRepresentation): void => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value!);
    if (!eventTypeMatches(eventTypes, event.type)) return;
    batch.push(event);
    cancel?.();
    cancel = schedule(fire, debounceMs);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const body = await readBody(request);
    if (body === undefined) {
      response.writeHead(413).end();
      return;
    }
    if (!verifyWebhookSignature(options.secret, body, request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()])) {
      response.writeHead(401).end();
      return;
    }
    let event: EventRepresentation;
    try {
      event = JSON.parse(body.toString('utf8')) as EventRepresentation;
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string') {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(202).end();
    accept(event);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(400);
      response.end();
    });
  });
  return { server, pending: () => batch.length };
}

/** Sends one trigger request; rejects unless the CI answered 2xx. */
async function post(url: string, init: RequestInit, what: string): Promise<void> {
  const answer = await fetch(url, { method: 'POST', ...init });
  if (!answer.ok) throw new Error(`${what} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
}

/** A generic trigger: POSTs the reason as JSON to `url` (a CI's webhook trigger), with a bearer token if given. */
export function genericTrigger(url: string, token?: string): Trigger {
  return (reason) =>
    post(url, { headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ source: 'orgadmin', ...reason }) }, 'the trigger URL');
}

/**
 * GitHub's `repository_dispatch`: starts the workflows of `repository` (`owner/name`) that listen
 * for `on: repository_dispatch: types: [<eventType>]`. The token needs the repository's contents
 * write permission.
 */
export function githubDispatchTrigger(options: { repository: string; token: string; eventType?: string; apiUrl?: string }): Trigger {
  const apiUrl = (options.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  return (reason) =>
    post(
      `${apiUrl}/repos/${options.repository}/dispatches`,
      {
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${options.token}`,
          'x-github-api-version': '2022-11-28',
          'content-type': 'application/json',
        },
        // client_payload is limited to 10 top-level properties: counts and types, not every id.
        body: JSON.stringify({ event_type: options.eventType ?? 'orgadmin-drift', client_payload: { events: reason.eventIds.length, types: reason.types } }),
      },
      'GitHub repository_dispatch',
    );
}

/**
 * A GitLab pipeline trigger: starts a pipeline of `ref` in `project` (id or `group/name`) with a
 * trigger token; the pipeline sees `ORGADMIN_EVENTS` (how many events) and `CI_PIPELINE_SOURCE=trigger`.
 */
export function gitlabPipelineTrigger(options: { project: string; token: string; ref?: string; gitlabUrl?: string }): Trigger {
  const base = (options.gitlabUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
  return (reason) => {
    const form = new URLSearchParams({ token: options.token, ref: options.ref ?? 'main', 'variables[ORGADMIN_EVENTS]': String(reason.eventIds.length) });
    return post(
      `${base}/api/v4/projects/${encodeURIComponent(options.project)}/trigger/pipeline`,
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      'GitLab pipeline trigger',
    );
  };
}

/** The trigger the environment describes (see the settings above). */
export function triggerFromEnvironment(env: NodeJS.ProcessEnv): Trigger {
  const required = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required for TRIGGER=${env.TRIGGER ?? 'generic'}.`);
    return value;
  };
  switch (env.TRIGGER ?? 'generic') {
    case 'generic':
      return genericTrigger(required('TRIGGER_URL'), env.TRIGGER_TOKEN);
    case 'github':
      return githubDispatchTrigger({ repository: required('GITHUB_REPOSITORY'), token: required('GITHUB_TOKEN'), eventType: env.GITHUB_EVENT_TYPE, apiUrl: env.GITHUB_API_URL });
    case 'gitlab':
      return gitlabPipelineTrigger({ project: required('GITLAB_PROJECT'), token: required('GITLAB_TRIGGER_TOKEN'), ref: env.GITLAB_REF, gitlabUrl: env.GITLAB_URL });
    default:
      throw new Error(`TRIGGER must be generic, github or gitlab, not "${env.TRIGGER}".`);
  }
}

if (require.main === module) {
  const secret = process.env.ORGADMIN_WEBHOOK_SECRET;
  if (!secret) throw new Error('ORGADMIN_WEBHOOK_SECRET is required: the secret of the webhook that posts here.');
  const receiver = createDriftReceiver({
    secret,
    trigger: triggerFromEnvironment(process.env),
    debounceMs: Number(process.env.DEBOUNCE_SECONDS ?? 30) * 1000,
    eventTypes: process.env.EVENT_TYPES?.split(',').map((type) => type.trim()),
  });
  const port = Number(process.env.PORT ?? 8787);
  receiver.server.listen(port, () => console.log(`drift receiver listening on port ${port}`));
}
