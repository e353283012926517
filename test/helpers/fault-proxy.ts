/**
 * A fault-injecting HTTP proxy for tests and benchmarks: it sits between the provider (or the SDK)
 * and the service and, for a seeded share of requests, answers 429 (`Retry-After: 1`), 502 or 503
 * itself, stalls until the client gives up, or forwards the request and then drops the connection
 * before the answer arrives (the write happened; the client never learns it). It can also hold
 * chosen requests until the test releases them: a service that has not answered yet, for exactly
 * as long as the test decides.
 *
 * Which request gets which fault is a pure function of the seed, the request line and how many
 * times that request line was seen before, so a failing run reproduces with the same seed even
 * though Terraform sends requests concurrently.
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The faults the proxy can inject. */
export type FaultKind = 'rate-limited' | 'bad-gateway' | 'unavailable' | 'stall' | 'lost-answer';

/** Every fault kind. */
export const ALL_FAULTS: readonly FaultKind[] = ['rate-limited', 'bad-gateway', 'unavailable', 'stall', 'lost-answer'];

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** The service's base address (`http://127.0.0.1:PORT`). */
  upstream: string;
  /** Share of eligible requests that get a fault, 0–1. */
  rate: number;
  /** Seed of the fault choice. */
  seed: number;
  /** Faults to choose from (evenly). @default every kind */
  kinds?: readonly FaultKind[];
  /** Which requests may get a fault. @default every request */
  eligible?: (method: string, path: string) => boolean;
  /** How long a stalled request is held before the proxy drops it, in ms. @default 3000 */
  stallMs?: number;
  /** Delay added before forwarding every request, in ms (to make runs long enough to interrupt). @default 0 */
  latencyMs?: number;
  /** Which requests wait in the proxy, before forwarding, until {@link FaultProxy.release}. @default none */
  held?: (method: string, path: string) => boolean;
}

/** A running proxy. */
export interface FaultProxy {
  /** The proxy's base address: point the client here instead of at the service. */
  baseUrl: string;
  /** Faults injected so far, by kind. */
  injected: Record<FaultKind, number>;
  /** Requests seen so far. */
  requests: number;
  /** Changes the fault rate from now on (0 turns faults off). */
  setRate(rate: number): void;
  /** Resolves once `count` requests have been held in all (they have reached the proxy). */
  whenHeld(count: number): Promise<void>;
  /** Forwards the held requests, and from now on holds none. */
  release(): void;
  /** Resolves once no request is being handled (every held or delayed forward has reached the service). */
  idle(): Promise<void>;
  /** Stops the proxy and drops every open connection. */
  close(): Promise<void>;
}

/** A number in [0, 1) from a hash of `parts`: the same parts give the same number. */
function hashUnit(...parts: Array<string | number>): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** Reads a request body in full. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Starts a proxy on a free loopback port. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = new URL(options.upstream);
  const kinds = options.kinds ?? ALL_FAULTS;
  const stallMs = options.stallMs ?? 3000;
  const latencyMs = options.latencyMs ?? 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  let heldWaiters: Array<{ count: number; wake: () => void }> = [];
  const hold = (): Promise<void> => {
    held += 1;
    heldWaiters = heldWaiters.filter((waiter) => {
      if (held < waiter.count) return true;
      waiter.wake();
      return false;
    });
    return released;
  };
  let rate = options.rate;
  const seen = new Map<string, number>();
  const injected = Object.fromEntries(ALL_FAULTS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const choose = (method: string, url: string): FaultKind | undefined => {
    const path = url.split('?')[0]!;
    const key = `${method} ${url}`;
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    if (rate <= 0 || (options.eligible && !options.eligible(method, path))) return undefined;
    if (hashUnit(options.seed, key, occurrence, 'fault?') >= rate) return undefined;
    return kinds[Math.floor(hashUnit(options.seed, key, occurrence, 'kind') * kinds.length)];
  };

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (res) => {
          readBody(res).then((answer) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: answer }), reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    if (options.held?.(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!)) await hold();
    if (latencyMs > 0) await wait(latencyMs);
    const fault = choose(req.method ?? 'GET', req.url ?? '/');
    if (fault !== undefined) injected[fault] += 1;
    switch (fault) {
      case 'rate-limited':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: 'rate_limited', error_description: 'Too many requests (injected by the fault proxy)' }));
        return;
      case 'bad-gateway':
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body>502 Bad Gateway (injected)</body></html>');
        return;
      case 'unavailable':
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<html><body>503 Service Unavailable (injected)</body></html>');
        return;
      case 'stall':
        // Held until the client gives up (its request timeout) or the stall ends; never forwarded.
        await Promise.race([wait(stallMs), new Promise((resolve) => res.on('close', resolve))]);
        req.socket.destroy();
        return;
      default:
        break;
    }
    const answer = await forward(req, body);
    if (fault === 'lost-answer') {
      // The service did the work; the client never hears of it.
      req.socket.destroy();
      return;
    }
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers['connection'];
    delete headers['keep-alive'];
    headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  let pending = 0;
  let idleWaiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    pending += 1;
    handle(req, res)
      .catch(() => {
        // The upstream failed or the client went away: drop the connection as a broken proxy would.
        req.socket.destroy();
      })
      .finally(() => {
        pending -= 1;
        if (pending === 0) {
          for (const wake of idleWaiters) wake();
          idleWaiters = [];
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let requests = 0;
  server.on('request', () => {
    requests += 1;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    injected,
    get requests() {
      return requests;
    },
    setRate(value: number) {
      rate = value;
    },
    whenHeld: (count) => (held >= count ? Promise.resolve() : new Promise<void>((wake) => heldWaiters.push({ count, wake }))),
    release,
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
