/**
 * One HTTP delivery of a webhook payload: a POST of the JSON body with its signature header, on
 * connections that refuse private addresses unless allowed (webhook-address.ts). Any 2xx answer is
 * a delivery, anything else (another status, no answer within the timeout, a refused address) is
 * a failed attempt.
 */
import { Agent, request } from 'undici';
import { isIP } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from '../../api';
import { guardedLookup, isPrivateAddress } from './webhook-address';

/** What an attempt got: the HTTP status, or why there was none. */
export type AttemptAnswer = { status: number } | { error: string };

/** Sends one signed payload to `url`. Never throws. */
export type Deliver = (url: string, body: string, secret: string) => Promise<AttemptAnswer>;

/** Longest wait for a receiver's answer; a receiver is expected to answer at once and work later. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** The headers of a delivery of `body`. */
export function deliveryHeaders(body: string, secret: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'orgadmin-webhooks',
    [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(secret, body),
  };
}

/**
 * The service's {@link Deliver} over undici, with its own connection pool. `close` ends the pool.
 */
export function httpDeliver(allowPrivate: boolean): { deliver: Deliver; close: () => Promise<void> } {
  const agent = new Agent({
    connect: { lookup: guardedLookup(allowPrivate), timeout: DELIVERY_TIMEOUT_MS },
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
  });
  const deliver: Deliver = async (url, body, secret) => {
    try {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) return { error: `${host} is a loopback, link-local or private address` };
      const answer = await request(url, { method: 'POST', body, headers: deliveryHeaders(body, secret), dispatcher: agent });
      // The body is not read for meaning; dumping it frees the connection for the next send.
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { status: answer.statusCode };
    } catch (error) {
      return { error: error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error) };
    }
  };
  return { deliver, close: () => agent.close() };
}
