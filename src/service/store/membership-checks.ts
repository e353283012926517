/**
 * Membership checks answered together: the checks that arrive in the same turn of the event loop
 * are put to the database as one batch (one read transaction on SQLite, one query on PostgreSQL)
 * instead of one each.
 *
 * Why: the check (`GET …/members/{user}`) is the service's hottest request and does little else;
 * per check, SQLite pays the locks of a read transaction and PostgreSQL a network round trip plus
 * a pooled connection, both more than the lookup itself. Under load many checks arrive in one
 * turn (one per connection whose request was parsed in that poll phase), and a batch pays that
 * fixed cost once.
 *
 * Correctness: nothing is remembered between batches. A batch is sent when the turn in which its
 * first check arrived ends (`setImmediate`), so every check reads the database after it was asked:
 * a check made after an add or a remove through this process has returned sees it. Identical
 * questions in one batch share one answer (they are asked at the same moment). Each question keeps
 * its realm, so a batch never mixes realms' answers.
 */

/** One membership question: is `userId` a member of `orgId`, both in `realm`? */
export interface MembershipQuestion {
  realm: string;
  orgId: string;
  userId: string;
}

/**
 * Answers distinct questions in one go, in the order given (true: a member). A store's
 * implementation reads them in one snapshot.
 */
export type AnswerMembershipQuestions = (questions: readonly MembershipQuestion[]) => boolean[] | Promise<boolean[]>;

/** Most questions put to the database at once; more wait for the next batch, in the same turn. */
export const MAX_MEMBERSHIP_BATCH = 500;

/** A pending check: its question and who waits for the answer. */
interface PendingCheck extends MembershipQuestion {
  resolve: (member: boolean) => void;
  reject: (error: unknown) => void;
}

/** See the module comment. */
export class MembershipChecks {
  private pending: PendingCheck[] = [];

  /** @param answer how the store answers a batch of distinct questions. */
  constructor(private readonly answer: AnswerMembershipQuestions) {}

  /** Whether `userId` is a member of `orgId` in `realm`, read with the other checks of this turn. */
  isMember(realm: string, orgId: string, userId: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ realm, orgId, userId, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Sends the pending checks, in batches of at most {@link MAX_MEMBERSHIP_BATCH} distinct questions. */
  private flush(): void {
    const checks = this.pending;
    this.pending = [];
    let batch = new Batch();
    for (const check of checks) {
      if (!batch.add(check)) {
        this.send(batch);
        batch = new Batch();
        batch.add(check);
      }
    }
    this.send(batch);
  }

  /** Puts one batch to the store and settles its checks (all rejected when the store fails). */
  private send(batch: Batch): void {
    let answers: Promise<boolean[]>;
    try {
      answers = Promise.resolve(this.answer(batch.questions));
    } catch (error) {
      answers = Promise.reject(error);
    }
    answers.then(
      (result) => batch.checks.forEach((check, i) => check.resolve(result[batch.answerIndex[i]] === true)),
      (error: unknown) => batch.checks.forEach((check) => check.reject(error)),
    );
  }
}

/** The checks of one batch and their distinct questions. */
class Batch {
  readonly checks: PendingCheck[] = [];
  readonly questions: MembershipQuestion[] = [];
  /** `answerIndex[i]`: the index in {@link Batch.questions} of check i's question. */
  readonly answerIndex: number[] = [];
  /** question key → index in {@link Batch.questions}. */
  private readonly byKey = new Map<string, number>();

  /** Adds a check; false (and nothing added) when it would need a question beyond the batch's bound. */
  add(check: PendingCheck): boolean {
    // NUL separates the three unambiguously: the store has no text containing it.
    const key = `${check.realm}\u0000${check.orgId}\u0000${check.userId}`;
    let index = this.byKey.get(key);
    if (index === undefined) {
      if (this.questions.length === MAX_MEMBERSHIP_BATCH) return false;
      index = this.questions.length;
      this.byKey.set(key, index);
      this.questions.push({ realm: check.realm, orgId: check.orgId, userId: check.userId });
    }
    this.checks.push(check);
    this.answerIndex.push(index);
    return true;
  }
}
