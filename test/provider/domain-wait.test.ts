/** The verification wait's backoff and deadline, driven by a stepped clock (no real waiting). */
import type { DomainVerification } from '../../src/api';
import { FIRST_PAUSE_MS, MAX_PAUSE_MS, parseDuration, waitForVerification, type WaitClock } from '../../src/provider/domain-wait';

/** A clock whose sleep moves time on at once and records each pause. */
function steppedClock(): WaitClock & { pauses: number[]; at: number } {
  const clock = {
    at: 0,
    pauses: [] as number[],
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.pauses.push(ms);
      clock.at += ms;
    },
  };
  return clock;
}

const answer = (verified: boolean): DomainVerification => ({ domain_name: 'globex.example', verified, record_key: '_org-domain-ownership', record_value: 'v' });

describe('waitForVerification', () => {
  it('asks again with doubling pauses up to the longest, and ends when verified', async () => {
    const clock = steppedClock();
    let calls = 0;
    const outcome = await waitForVerification(async () => answer(++calls === 8), 10 * 60_000, clock);
    expect(outcome).toMatchObject({ verified: true, attempts: 8 });
    expect(clock.pauses).toEqual([FIRST_PAUSE_MS, 2_000, 4_000, 8_000, 16_000, MAX_PAUSE_MS, MAX_PAUSE_MS]);
  });

  it('cuts the last pause at the deadline, asks a last time there, and answers the last finding', async () => {
    const clock = steppedClock();
    const outcome = await waitForVerification(async () => answer(false), 5_000, clock);
    expect(outcome).toMatchObject({ verified: false, attempts: 4 });
    expect(clock.pauses).toEqual([1_000, 2_000, 2_000]);
    expect(clock.at).toBe(5_000);
  });

  it('ends at once on an error of the service', async () => {
    const clock = steppedClock();
    await expect(waitForVerification(async () => Promise.reject(new Error('409')), 60_000, clock)).rejects.toThrow('409');
    expect(clock.pauses).toEqual([]);
  });
});

describe('parseDuration', () => {
  it('reads Terraform timeout durations and refuses others', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration('250ms')).toBe(250);
    for (const bad of ['', '10', 'ten minutes', '0s', '-1m', '10 m']) expect(parseDuration(bad)).toBeUndefined();
  });
});
