/**
 * Readiness follows the PostgreSQL server under load: down (503) while the server is stopped, up
 * again once it is back; meanwhile the API answers 503 `temporarily_unavailable`, never a 500.
 */
import { Pool } from 'undici';
import { memberPath, orgsPath, tokenPath } from '../../../src/api';
import { Admin } from '../../../src/service/admin';
import { startServer, type RunningServer } from '../../../src/service/server';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

let postgres: TestPostgres;
let server: RunningServer | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await postgres?.stop();
});

it('goes unready while PostgreSQL is stopped and ready when it is back, answering 503 and never 500 between', async () => {
  server = await startServer({ dataFile: await postgres.createSchema(), port: 0 });
  const admin = new Admin(server.store);
  await admin.createRealm('acme', { tokenLifetimeSeconds: 3600 });
  const key = await admin.createApiKey('acme', { name: 'load', permissions: ['view-organizations', 'manage-organizations', 'create-organization'] });
  const users: string[] = [];
  for (let i = 0; i < 50; i += 1) users.push((await admin.createUser('acme', { username: `user-${i}` })).id);
  const token = await fetch(`${server.url}${tokenPath('acme')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }),
  });
  const authorization = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
  const created = await fetch(`${server.url}${orgsPath('acme')}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'o' }) });
  const orgId = created.headers.get('location')!.split('/').pop()!;
  const ready = async (): Promise<number> => (await fetch(`${server!.url}/health/ready`)).status;
  expect(await ready()).toBe(200);

  // 50 connections of checks and writes for the whole test.
  const statuses = new Map<number, number>();
  const bodies = new Set<string>();
  let stop = false;
  const pool = new Pool(server.url, { connections: 50 });
  const workers = users.map(async (userId) => {
    for (let round = 0; !stop; round += 1) {
      const answer = await pool.request({ method: round % 2 === 0 ? 'PUT' : 'GET', path: memberPath('acme', orgId, userId), headers: { authorization } });
      const text = await answer.body.text();
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      if (answer.statusCode >= 500) bodies.add(`${answer.statusCode} ${answer.headers['retry-after']} ${text}`);
    }
  });
  try {
    await postgres.pause();
    // Polled, not slept: the first probe after the stop already finds the database gone.
    expect(await ready()).toBe(503);
    const during = (await (await fetch(`${server.url}/health/ready`)).json()) as { checks: Array<{ name: string; status: string }> };
    expect(during.checks[0]).toMatchObject({ name: 'store', status: 'DOWN' });
    const while503 = statuses.get(503) ?? 0;
    while ((statuses.get(503) ?? 0) < while503 + 50) await new Promise((resolve) => setImmediate(resolve));
    await postgres.resume();
    let status = await ready();
    while (status !== 200) status = await ready();
    const after = statuses.get(204) ?? 0;
    while ((statuses.get(204) ?? 0) < after + 50) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    stop = true;
    await Promise.all(workers);
    await pool.close();
  }
  expect(statuses.get(500)).toBeUndefined();
  expect([...bodies]).toEqual(['503 1 {"error":"temporarily_unavailable","error_description":"The service cannot reach its database right now; try again shortly."}']);
}, 120_000);
