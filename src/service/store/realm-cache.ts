/**
 * The realm cache of both stores: every realm request reads its realm, and without a cache each
 * read is a database round trip (PostgreSQL) or a pair of lock system calls (SQLite), as much as
 * the membership check the request is for.
 *
 * It holds {@link RealmSettings} only, never the private signing key: the request path does not
 * need the key, and only the routes that sign read it, per call ({@link Store.getRealm}).
 *
 * How it stays correct:
 * - the store's own realm writes call {@link RealmCache.forget} once they are done, so they show on
 *   the next read;
 * - writes by other connections (the CLI in another process, another service instance) are noticed
 *   through a change mark the store reads from the database (SQLite: `PRAGMA data_version`,
 *   PostgreSQL: the `realm_changes` counter), at most once per recheck interval, so such a change
 *   (e.g. a disabled realm) shows within that interval, not later;
 * - absent realms are never remembered, so a realm created anywhere shows at once;
 * - a read that overlaps a {@link RealmCache.forget} does not store what it read (it may predate
 *   the write that forgot).
 */
import type { RealmSettings } from './store';

/**
 * Default most milliseconds a realm changed by another connection (e.g. disabled with the CLI while
 * `serve` runs) may still be served as it was. Short enough to be unnoticeable by a person running
 * a command, long enough that the check costs nothing under load. Changes made through the same
 * store show at once.
 */
export const DEFAULT_REALM_RECHECK_MS = 200;

/** Most realms kept; past it, further realms are read per call. */
const MAX_CACHED_REALMS = 1000;

/** How a store lets the cache read the database. */
export interface RealmCacheSource {
  /** A value that changes whenever another connection has committed a change to realms. */
  changeMark(): Promise<number | string>;
  /** One realm's settings, read from the database (no private key), or undefined. */
  readSettings(name: string): Promise<RealmSettings | undefined>;
}

/** Options of a {@link RealmCache}. */
export interface RealmCacheOptions {
  /** Most milliseconds between reads of the change mark (default {@link DEFAULT_REALM_RECHECK_MS}); 0 reads it every time. */
  recheckMs?: number;
  /** The recheck clock in milliseconds (default `performance.now`); tests inject one instead of sleeping. */
  now?: () => number;
}

/** Checks a recheck interval given to a store's `open`. */
export function checkedRecheckMs(recheckMs: number | undefined): number {
  const value = recheckMs ?? DEFAULT_REALM_RECHECK_MS;
  if (!(value >= 0)) throw new Error(`realmRecheckMs must be 0 or more milliseconds, got ${value}.`);
  return value;
}

/** See the module comment. */
export class RealmCache {
  private readonly realms = new Map<string, RealmSettings>();
  /** The change mark the cached realms belong to; undefined forces a read of the mark. */
  private mark: number | string | undefined = undefined;
  /** When (by {@link RealmCache.now}) the mark was last read. */
  private checkedAt = 0;
  /** The read of the mark under way, shared by the requests that arrive meanwhile. */
  private checking: Promise<void> | undefined = undefined;
  /** Counts {@link RealmCache.forget} calls: a read started before one must not store its result. */
  private generation = 0;
  private readonly recheckMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: RealmCacheSource,
    options: RealmCacheOptions = {},
  ) {
    this.recheckMs = checkedRecheckMs(options.recheckMs);
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * One realm's settings when the cache can answer without reading the database (the realm is
   * remembered and the change mark was read within the recheck interval), else undefined: then
   * {@link RealmCache.get} reads. A copy, as from `get`. Why: the request path takes the realm
   * from here without waiting for a promise, which costs a few turns of the microtask queue.
   */
  peek(name: string): RealmSettings | undefined {
    if (this.needsRecheck()) return undefined;
    const realm = this.realms.get(name);
    return realm === undefined ? undefined : { ...realm };
  }

  /** One realm's settings: remembered, or read and remembered. A copy each time, so callers cannot change each other's. */
  async get(name: string): Promise<RealmSettings | undefined> {
    if (this.needsRecheck()) {
      this.checking ??= this.recheck().finally(() => (this.checking = undefined));
      await this.checking;
    }
    let realm = this.realms.get(name);
    if (realm === undefined) {
      const generation = this.generation;
      realm = await this.source.readSettings(name);
      if (realm === undefined) return undefined; // Absent realms are not remembered: creating one must show at once.
      if (generation === this.generation && this.realms.size < MAX_CACHED_REALMS) this.realms.set(name, realm);
    }
    return { ...realm };
  }

  /** Whether the change mark must be read before a remembered realm may be served. */
  private needsRecheck(): boolean {
    return this.mark === undefined || this.now() - this.checkedAt >= this.recheckMs;
  }

  /** Empties the cache (the store changed realms itself). */
  forget(): void {
    this.realms.clear();
    this.mark = undefined;
    this.generation += 1;
  }

  /** Reads the change mark; a new one empties the cache. */
  private async recheck(): Promise<void> {
    const checkedAt = this.now();
    const generation = this.generation;
    const mark = await this.source.changeMark();
    if (generation !== this.generation) return; // Forgotten meanwhile: the next read checks again.
    if (mark !== this.mark) {
      this.realms.clear();
      this.generation += 1;
      this.mark = mark;
    }
    this.checkedAt = checkedAt;
  }
}
