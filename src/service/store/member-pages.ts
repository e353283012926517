/**
 * Keyset paging of member lists behind the wire contract's `first`/`max` offsets.
 *
 * Why: a large organization's member list is read page after page (the provider's authoritative
 * refresh: `first=0`, `first=1000`, …). With `OFFSET`, the database walks and drops every row
 * before the page, so the pages of one refresh cost O(N²) in all, and the late ones block
 * everything else the service does.
 *
 * How: the list is read along the index `(organization_id, seq)` in its sort order, and each page
 * that a store serves leaves a boundary behind: "in organization O with filter F, the row after
 * position `first + rows` comes after membership seq S". The next page asks for exactly that
 * position, so it starts at `seq > S` and costs only its own rows. A boundary is valid only for
 * the version of the organization's member list it was taken at (`organizations.members_version`,
 * bumped by a trigger on every membership added or removed); the store reads the version in the
 * same snapshot as the page and, when it differs, reads the page by position (`OFFSET`, still
 * along the index, no sort). So every answer is exactly what `OFFSET first LIMIT max` over the
 * current list gives, boundary or not: the contract's offsets keep their meaning when members are
 * added or removed between pages. Filters (search terms, excluded admin accounts) are part of the
 * boundary's key, since they change positions; the user columns they read never change.
 *
 * Boundaries live in the store's memory (each service instance its own), bounded in number; a
 * forgotten one only costs one page read by position.
 */
import type { MemberFilter } from './store';

/** Most boundaries kept per store (the oldest go first). */
const MAX_BOUNDARIES = 4096;

/** Where a remembered page boundary lets a page start. */
export interface PageStart {
  /** Read rows with `seq` greater than this (0: from the start). */
  afterSeq: number;
  /** Then skip this many rows (0 when a boundary was found). */
  offset: number;
  /** The member list version the boundary belongs to, or undefined when there was none. */
  version: number | undefined;
}

/** Remembered page boundaries of member lists; see the module comment. */
export class MemberPageBoundaries {
  /** key → boundary; a Map keeps insertion order, which makes it a simple LRU. */
  private readonly boundaries = new Map<string, { version: number; lastSeq: number }>();

  /** The key of a position in one organization's list under one filter. */
  private static key(orgId: string, filter: MemberFilter, position: number): string {
    const terms = (filter.searchTerms ?? []).filter((term) => term !== '');
    return JSON.stringify([orgId, filter.excludeAdminAccounts === true, terms, position]);
  }

  /** Where the page at `first` starts: after a remembered boundary, or by position. */
  start(orgId: string, filter: MemberFilter): PageStart {
    const first = Math.max(filter.first ?? 0, 0);
    if (first === 0) return { afterSeq: 0, offset: 0, version: undefined };
    const key = MemberPageBoundaries.key(orgId, filter, first);
    const boundary = this.boundaries.get(key);
    if (boundary === undefined) return { afterSeq: 0, offset: first, version: undefined };
    // Used again: move it to the young end of the LRU order.
    this.boundaries.delete(key);
    this.boundaries.set(key, boundary);
    return { afterSeq: boundary.lastSeq, offset: 0, version: boundary.version };
  }

  /**
   * Remembers where the page after this one starts: the page at `first` of list version `version`
   * ended with membership `lastSeq` after `rows` rows. Nothing is remembered for an empty page or
   * one that was not cut by `max` (the list ends there).
   */
  remember(orgId: string, filter: MemberFilter, version: number, rows: number, lastSeq: number | undefined): void {
    if (lastSeq === undefined || filter.max === undefined || filter.max < 0 || rows < filter.max) return;
    const next = Math.max(filter.first ?? 0, 0) + rows;
    const key = MemberPageBoundaries.key(orgId, filter, next);
    this.boundaries.delete(key);
    this.boundaries.set(key, { version, lastSeq });
    if (this.boundaries.size > MAX_BOUNDARIES) this.boundaries.delete(this.boundaries.keys().next().value as string);
  }
}
