/**
 * Test helper: a webhook receiver on a free port of 127.0.0.1 that keeps every delivery it gets
 * (raw body, headers, parsed event), answers with a status the test sets (200 unless told), and
 * can hold answers back (a receiver that never answers while the service is killed).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventRepresentation } from '../../src/api';

/** One delivery as the receiver got it. */
export interface Delivery {
  /** The exact body bytes as text. */
  body: string;
  headers: IncomingMessage['headers'];
  event: EventRepresentation;
}

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:PORT/hook` */
  url: string;
  /** Every delivery, in arrival order (answered or not). */
  deliveries: Delivery[];
  /** The status later deliveries are answered with. */
  answerWith(status: number): void;
  /** While true, deliveries get no answer at all (they are kept; the sender waits). */
  holdAnswers(hold: boolean): void;
  /** Resolves once `condition` holds for the deliveries (checked on each arrival); rejects after `timeoutMs`. */
  until(condition: (deliveries: Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver. */
export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const held: ServerResponse[] = [];
  const waiters = new Set<() => void>();
  let status = 200;
  let hold = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({ body, headers: request.headers, event: JSON.parse(body) as EventRepresentation });
      for (const waiter of [...waiters]) waiter();
      if (hold) {
        held.push(response);
        return;
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    answerWith(next) {
      status = next;
    },
    holdAnswers(next) {
      hold = next;
    },
    until(condition, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!condition(deliveries)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver got ${deliveries.length} deliveries, not what the test waited for`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
