import { HashGate } from '../../../src/service/auth/hash-gate';
import { ServiceError } from '../../../src/service/errors';

/** Work that ends when the test says so. */
function controlled(): { work: () => Promise<string>; finish: () => void; started: boolean } {
  let finish!: () => void;
  const state = {
    started: false,
    finish: () => finish(),
    work: () => {
      state.started = true;
      return new Promise<string>((resolve) => {
        finish = () => resolve('done');
      });
    },
  };
  return state;
}

/** Lets the microtasks queued by finishing work run (a turn resumes its caller through promises). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The refusal of a turn for `source`, or undefined when one was given (and is then cancelled). */
function refusalOf(gate: HashGate, source: string): ServiceError | undefined {
  try {
    gate.enter(source).cancel();
    return undefined;
  } catch (error) {
    return error as ServiceError;
  }
}

describe('HashGate', () => {
  it('runs one hash at a time per address, lets a few wait, and refuses the rest at once with 429', async () => {
    const gate = new HashGate({ concurrency: 4, perSourceConcurrency: 1, perSourceQueue: 2, maxQueue: 100 });
    const jobs = [controlled(), controlled(), controlled()];
    const runs = jobs.map((job) => gate.run('10.0.0.1', job.work));
    await settle();
    expect(jobs.map((job) => job.started)).toEqual([true, false, false]);
    expect(gate.load).toEqual({ running: 1, waiting: 2 });
    const refused = refusalOf(gate, '10.0.0.1');
    expect(refused).toMatchObject({ statusCode: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } });
    for (const job of jobs) {
      expect(job.started).toBe(true);
      job.finish();
      await settle();
    }
    await expect(Promise.all(runs)).resolves.toEqual(['done', 'done', 'done']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('bounds the hashes running and waiting overall', async () => {
    const gate = new HashGate({ concurrency: 2, perSourceConcurrency: 1, perSourceQueue: 8, maxQueue: 3 });
    const jobs = Array.from({ length: 5 }, () => controlled());
    // Five addresses: two run, three wait; a sixth address is refused although it has nothing queued.
    const runs = jobs.map((job, i) => gate.run(`10.0.0.${i}`, job.work));
    await settle();
    expect(gate.load).toEqual({ running: 2, waiting: 3 });
    expect(refusalOf(gate, '10.0.0.99')).toMatchObject({ statusCode: 429 });
    for (let i = 0; i < jobs.length; i += 1) {
      // Never more than two at once.
      expect(jobs.filter((job) => job.started).length).toBeLessThanOrEqual(i + 2);
      jobs[i].finish();
      await settle();
    }
    await Promise.all(runs);
  });

  it('serves an address that arrives during a flood at the next free slot, before the flood’s waiting hashes', async () => {
    const events: string[] = [];
    const gate = new HashGate({ concurrency: 1, perSourceConcurrency: 1, perSourceQueue: 8, maxQueue: 100, observe: (event, source) => events.push(`${event} ${source}`) });
    const flood = Array.from({ length: 9 }, () => controlled());
    const floodRuns = flood.map((job) => gate.run('flooder', job.work));
    await settle();
    expect(refusalOf(gate, 'flooder')).toBeDefined();
    const legit = controlled();
    const legitRun = gate.run('legit', legit.work);
    await settle();
    expect(legit.started).toBe(false);
    flood[0].finish();
    await settle();
    // The one slot went to the newcomer, not to the flood's next hash.
    expect(legit.started).toBe(true);
    expect(flood[1].started).toBe(false);
    expect(events.slice(events.indexOf('queued legit') + 1).find((event) => event.startsWith('started'))).toBe('started legit');
    legit.finish();
    await legitRun;
    for (const job of flood.slice(1)) {
      await settle();
      job.finish();
    }
    await Promise.all(floodRuns);
  });

  it('gives a place back when the turn is cancelled, whether it was waiting or already had its slot', async () => {
    const gate = new HashGate({ concurrency: 1, perSourceConcurrency: 1, perSourceQueue: 1, maxQueue: 10 });
    const holding = gate.enter('a');
    const waiting = gate.enter('a');
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    waiting.cancel();
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    holding.cancel();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    await expect(gate.run('a', async () => 'ran')).resolves.toBe('ran');
  });

  it('refuses nonsensical settings', () => {
    expect(() => new HashGate({ concurrency: 0 })).toThrow(/concurrency/);
    expect(() => new HashGate({ perSourceQueue: -1 })).toThrow(/perSourceQueue/);
    expect(() => new HashGate({ maxQueue: 1.5 })).toThrow(/maxQueue/);
  });
});
