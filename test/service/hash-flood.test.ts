/**
 * The CPU spent on password hashes is bounded per source address and overall (issue 27, finding 2).
 * One address sends 150 password attempts at once, each for another username (so the per-username
 * throttle never slows them); a legitimate user signs in from another address meanwhile. Requests
 * go over the service's real port from two loopback addresses (127.0.0.2, 127.0.0.3).
 *
 * Nothing here is timed: the test counts the hashes the service started per address and where the
 * legitimate login's hash stood in the queue (the gate's own events), which is what keeps that
 * login's latency whatever the machine's speed. The latency itself is a row of bench:service.
 */
import { Agent, request } from 'undici';
import { tokenPath } from '../../src/api';
import { DEFAULT_HASH_GATE } from '../../src/service/auth/hash-gate';
import { createTestRealm, startTestService, type TestService } from '../helpers/service';

const FLOOD = 150;
const FLOODER = '127.0.0.2';
const USER = '127.0.0.3';

let svc: TestService;
const events: Array<{ event: string; source: string }> = [];
/** Called after each event (the test waits on the gate's own events, never on time). */
let onEvent: () => void = () => undefined;
const agents: Record<string, Agent> = { [FLOODER]: new Agent({ localAddress: FLOODER }), [USER]: new Agent({ localAddress: USER }) };

beforeAll(async () => {
  svc = await startTestService({ app: { hashGate: { observe: (event, source) => {
    events.push({ event, source });
    onEvent();
  } } } });
  await createTestRealm(svc, 'acme');
  await svc.admin.createUser('acme', { username: 'alice', password: 'correct horse battery staple' });
  events.length = 0;
});
afterAll(async () => {
  await svc.close();
  await Promise.all(Object.values(agents).map((agent) => agent.close()));
});

/** A password grant from `address`; resolves with the status. */
async function signIn(address: string, username: string, password: string): Promise<number> {
  const answer = await request(`${svc.baseUrl}${tokenPath('acme')}`, {
    method: 'POST',
    dispatcher: agents[address],
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }).toString(),
  });
  await answer.body.dump();
  return answer.statusCode;
}

const count = (event: string, source: string): number => events.filter((e) => e.event === event && e.source === source).length;

/** The most hashes that ran and waited at once, per source address and overall, replayed from the gate's events. */
function peaks(): { running: Map<string, number>; waiting: Map<string, number>; runningOverall: number } {
  const running = new Map<string, number>();
  const waiting = new Map<string, number>();
  const now = { running: new Map<string, number>(), waiting: new Map<string, number>(), overall: 0 };
  let runningOverall = 0;
  const step = (map: Map<string, number>, source: string, by: number) => map.set(source, (map.get(source) ?? 0) + by).get(source)!;
  for (const { event, source } of events) {
    if (event === 'queued') waiting.set(source, Math.max(waiting.get(source) ?? 0, step(now.waiting, source, 1)));
    if (event === 'withdrawn') step(now.waiting, source, -1);
    if (event === 'started') {
      step(now.waiting, source, -1);
      running.set(source, Math.max(running.get(source) ?? 0, step(now.running, source, 1)));
      now.overall += 1;
      runningOverall = Math.max(runningOverall, now.overall);
    }
    if (event === 'finished') {
      step(now.running, source, -1);
      now.overall -= 1;
    }
  }
  return { running, waiting, runningOverall };
}

it('hashes only what one address may queue of a 150-attempt flood, refuses the rest at once, and serves another address at the next free slot', async () => {
  const flood = Array.from({ length: FLOOD }, (_, i) => signIn(FLOODER, `nobody-${i}`, 'guess'));
  // Every flood attempt has been admitted or refused once the gate has seen all of them.
  await new Promise<void>((resolve) => {
    onEvent = () => {
      if (count('refused', FLOODER) + count('queued', FLOODER) === FLOOD) resolve();
    };
  });
  const floodStillWaiting = count('queued', FLOODER) - count('started', FLOODER);
  const user = signIn(USER, 'alice', 'correct horse battery staple');
  const [statuses, userStatus] = await Promise.all([Promise.all(flood), user]);

  expect(userStatus).toBe(200);
  // Each flood attempt was either refused at once, without a hash, or hashed once.
  const refused = statuses.filter((status) => status === 429).length;
  expect(refused).toBe(count('refused', FLOODER));
  expect(statuses.filter((status) => status === 400)).toHaveLength(FLOOD - refused);
  expect(count('started', FLOODER)).toBe(FLOOD - refused);
  expect(refused).toBeGreaterThan(0);
  // Never more than the bounds at once: per address, and overall.
  const { running, waiting, runningOverall } = peaks();
  expect(running.get(FLOODER)).toBe(DEFAULT_HASH_GATE.perSourceConcurrency);
  expect(waiting.get(FLOODER)).toBeLessThanOrEqual(DEFAULT_HASH_GATE.perSourceQueue);
  expect(runningOverall).toBeLessThanOrEqual(DEFAULT_HASH_GATE.concurrency);
  // The user's hash was queued while the flood still had hashes waiting, and was the next to start.
  expect(floodStillWaiting).toBeGreaterThan(0);
  const queuedAt = events.findIndex((e) => e.event === 'queued' && e.source === USER);
  const nextStart = events.slice(queuedAt + 1).find((e) => e.event === 'started');
  expect(nextStart).toEqual({ event: 'started', source: USER });
});
