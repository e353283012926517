/**
 * Test helper: a real Organization Administration Service on a free port of 127.0.0.1, backed by a
 * real SQLite file in a temporary directory. Shared by the service, SDK, provider and CLI tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PERMISSIONS, tokenPath } from '../../src/api';
import { buildApp, type AppOptions } from '../../src/service/app';
import { Admin } from '../../src/service/admin';
import type { Store } from '../../src/service/store/store';
import { SqliteStore } from '../../src/service/store/sqlite-store';
import { PostgresStore } from '../../src/service/store/postgres-store';
import { isPostgresUrl } from '../../src/service/store/open-store';

/** One request the service answered, as {@link TestService.requests} records it. */
export interface AnsweredRequest {
  method: string;
  url: string;
  status: number;
  clientId?: string;
}

/** A running service for one test file. */
export interface TestService {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  baseUrl: string;
  /** The fastify app (also usable with `app.inject()`). */
  app: FastifyInstance;
  /** The store behind the app. */
  store: Store;
  /** Administration API on the same store (realms, API keys, users). */
  admin: Admin;
  /** The SQLite file (or the PostgreSQL URL the service was started on). */
  dataFile: string;
  /** The directory that holds the SQLite file. */
  dir: string;
  /** Every request the service answered, in order (recorded by an onResponse hook). */
  requests: AnsweredRequest[];
  /**
   * Calls `listener` each time an answered request has been added to {@link requests}, until the
   * returned function is called: a test acts at a point of the service's work without polling.
   */
  onAnswer(listener: (request: AnsweredRequest) => void): () => void;
  /** Stops the service, closes the store and removes the temporary directory (if the helper made it). */
  close(): Promise<void>;
}

/**
 * Starts a service on 127.0.0.1 port 0 with logging off.
 *
 * When `dataFile` is given the caller owns its directory: `close()` leaves it in place so that a
 * second service can reopen the same file (persistence tests). Otherwise a fresh temporary
 * directory is created and removed by `close()`. A `postgres://` URL as `dataFile` runs the
 * service on that PostgreSQL database instead (test/helpers/postgres.ts makes one).
 */
export async function startTestService(opts: {
  rateLimit?: { requests: number; windowSeconds: number };
  domain?: string;
  dataFile?: string;
  /** The service's (and its store's realm-recheck) clock in ms since the epoch; default the real one. */
  now?: () => number;
  /** The store's clock of event times (ms since the epoch); default the real one. */
  clock?: () => number;
  /** Further app options (e.g. the credential throttle). */
  app?: Partial<AppOptions>;
  /** Called with the app before it listens (e.g. to add a hook that observes requests). */
  configure?: (app: FastifyInstance) => void;
} = {}): Promise<TestService> {
  const postgres = opts.dataFile !== undefined && isPostgresUrl(opts.dataFile);
  const ownsDir = opts.dataFile === undefined || postgres;
  const dir = ownsDir ? await mkdtemp(join(tmpdir(), 'orgadmin-service-')) : dirname(opts.dataFile!);
  const dataFile = opts.dataFile ?? join(dir, 'service.db');
  const storeOptions = { ...(opts.now ? { now: opts.now } : {}), ...(opts.clock ? { clock: opts.clock } : {}) };
  const store: Store = postgres ? await PostgresStore.open(dataFile, storeOptions) : SqliteStore.open(dataFile, storeOptions);
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({ ...opts.app, store, domain: opts.domain, rateLimit: opts.rateLimit, logger: false, now: opts.now });
    opts.configure?.(app);
    const requests: AnsweredRequest[] = [];
    const listeners = new Set<(request: AnsweredRequest) => void>();
    app.addHook('onResponse', async (request, reply) => {
      const answered: AnsweredRequest = { method: request.method, url: request.url, status: reply.statusCode, clientId: request.clientId };
      requests.push(answered);
      for (const listener of [...listeners]) listener(answered);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const started = app;
    let closed = false;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      app: started,
      store,
      admin: new Admin(store),
      dataFile,
      dir,
      requests,
      onAnswer(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      async close() {
        if (closed) return;
        closed = true;
        await started.close();
        await store.close();
        if (ownsDir) await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close();
    await store.close();
    if (ownsDir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

let keyCounter = 0;

/**
 * Creates the realm (when it does not exist yet) and an API key in it.
 * Defaults: realm `acme`, all four permissions.
 */
export async function createTestRealm(
  svc: TestService,
  realm = 'acme',
  opts: { permissions?: string[]; tokenLifetimeSeconds?: number } = {},
): Promise<{ realm: string; clientId: string; clientSecret: string }> {
  if (!(await svc.admin.getRealm(realm))) {
    await svc.admin.createRealm(realm, { tokenLifetimeSeconds: opts.tokenLifetimeSeconds });
  }
  keyCounter += 1;
  const key = await svc.admin.createApiKey(realm, {
    name: `test-key-${keyCounter}`,
    permissions: opts.permissions ?? [...PERMISSIONS],
  });
  return { realm, clientId: key.clientId, clientSecret: key.clientSecret };
}

/** Fetches an access token with the client-credentials grant; throws with the status and body otherwise. */
export async function getToken(svc: TestService, realm: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${svc.baseUrl}${tokenPath(realm)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { access_token: string }).access_token;
}
