import { MAX_MEMBERSHIP_BATCH, MembershipChecks, type MembershipQuestion } from '../../../src/service/store/membership-checks';

/** A store stand-in that records every batch it is asked and answers from a fixed set of memberships. */
function recordingAnswer(members: Set<string>) {
  const batches: MembershipQuestion[][] = [];
  const answer = (questions: readonly MembershipQuestion[]): boolean[] => {
    batches.push([...questions]);
    return questions.map((q) => members.has(`${q.realm}/${q.orgId}/${q.userId}`));
  };
  return { batches, answer };
}

describe('MembershipChecks', () => {
  it('puts the checks of one turn to the store as one batch of distinct questions', async () => {
    const { batches, answer } = recordingAnswer(new Set(['acme/o1/u1', 'other/o1/u2']));
    const checks = new MembershipChecks(answer);
    const answers = await Promise.all([
      checks.isMember('acme', 'o1', 'u1'),
      checks.isMember('acme', 'o1', 'u2'),
      checks.isMember('acme', 'o1', 'u1'),
      checks.isMember('other', 'o1', 'u2'),
    ]);
    expect(answers).toEqual([true, false, true, true]);
    expect(batches).toEqual([
      [
        { realm: 'acme', orgId: 'o1', userId: 'u1' },
        { realm: 'acme', orgId: 'o1', userId: 'u2' },
        { realm: 'other', orgId: 'o1', userId: 'u2' },
      ],
    ]);
  });

  it('asks the store again for checks of a later turn (nothing is remembered)', async () => {
    const members = new Set(['acme/o1/u1']);
    const { batches, answer } = recordingAnswer(members);
    const checks = new MembershipChecks(answer);
    expect(await checks.isMember('acme', 'o1', 'u1')).toBe(true);
    members.delete('acme/o1/u1');
    expect(await checks.isMember('acme', 'o1', 'u1')).toBe(false);
    expect(batches).toHaveLength(2);
  });

  it(`splits a turn's checks into batches of at most ${MAX_MEMBERSHIP_BATCH} distinct questions`, async () => {
    const { batches, answer } = recordingAnswer(new Set(['acme/o1/u0', `acme/o1/u${MAX_MEMBERSHIP_BATCH + 3}`]));
    const checks = new MembershipChecks(answer);
    const users = Array.from({ length: MAX_MEMBERSHIP_BATCH + 10 }, (_, i) => `u${i}`);
    const answers = await Promise.all(users.map((u) => checks.isMember('acme', 'o1', u)));
    expect(answers.filter(Boolean)).toHaveLength(2);
    expect(answers[0]).toBe(true);
    expect(answers[MAX_MEMBERSHIP_BATCH + 3]).toBe(true);
    expect(batches.map((batch) => batch.length)).toEqual([MAX_MEMBERSHIP_BATCH, 10]);
  });

  it('rejects every check of a batch the store fails, and answers the next turn again', async () => {
    let fail = true;
    const checks = new MembershipChecks(async (questions) => {
      if (fail) throw new Error('database gone');
      return questions.map(() => true);
    });
    const results = await Promise.allSettled([checks.isMember('acme', 'o1', 'u1'), checks.isMember('acme', 'o1', 'u2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await checks.isMember('acme', 'o1', 'u1')).toBe(true);
  });

  it('rejects the checks when the store throws synchronously', async () => {
    const checks = new MembershipChecks(() => {
      throw new Error('database closed');
    });
    await expect(checks.isMember('acme', 'o1', 'u1')).rejects.toThrow('database closed');
  });
});
