/**
 * Keyset paging behind the wire contract's `first`/`max` offsets, for member lists, organization
 * lists and user lists.
 *
 * Why: a large list is read page after page (the provider's authoritative refresh of a member set:
 * `first=0`, `first=1000`, …; a pipeline listing a realm's organizations). With `OFFSET`, the
 * database walks and drops every row before the page, so the pages of one walk cost O(N²) in all,
 * and the late ones hold up everything else the service does.
 *
 * How: each list is read along an index in its sort order (members: `(organization_id, seq)`;
 * organizations: `(realm, name)`; users: `(realm, lower(username))`), and each page that a store serves leaves a boundary behind: "in
 * list L under filter F, the row at position `first + rows` comes after sort key K". The next page
 * asks for exactly that position, so it starts after K and costs only its own rows. A boundary is
 * valid only for the version of the list it was taken at (a counter bumped by triggers on every
 * change that can move a row of the list: `organizations.members_version` for a member list,
 * `list_versions` for a realm's organizations and users, migration 006); the store reads the version in the
 * same snapshot as the page and, when it differs, reads the page by position (`OFFSET`, still along
 * the index, no sort). So every answer is exactly what `OFFSET first LIMIT max` over the current
 * list gives, boundary or not: the contract's offsets keep their meaning when rows are added or
 * removed between pages. Filters are part of the boundary's key, since they change positions.
 *
 * Boundaries live in the store's memory (each service instance its own), bounded in number; a
 * forgotten one only costs one page read by position.
 */
/** Most boundaries kept per list kind per store (the oldest go first). */
const MAX_BOUNDARIES = 4096;

/** Where a page starts: after a remembered boundary, or by position from the start of the list. */
export interface PageStart<Key> {
  /** Read rows whose sort key comes after this one (undefined: from the start of the list). */
  after: Key | undefined;
  /** Then skip this many rows (0 when a boundary was found). */
  offset: number;
  /** The list version the boundary belongs to, or undefined when there was none. */
  version: number | undefined;
}

/**
 * Remembered page boundaries of one kind of list; see the module comment. `Key` is the list's sort
 * key (a membership seq, an organization name).
 */
export class PageBoundaries<Key> {
  /** position key → boundary; a Map keeps insertion order, which makes it a simple LRU. */
  private readonly boundaries = new Map<string, { version: number; last: Key }>();

  /** Where the page at `first` of the list `list` (from {@link listKey}) starts. */
  start(list: string, first: number | undefined): PageStart<Key> {
    const at = Math.max(first ?? 0, 0);
    if (at === 0) return { after: undefined, offset: 0, version: undefined };
    const key = positionKey(list, at);
    const boundary = this.boundaries.get(key);
    if (boundary === undefined) return { after: undefined, offset: at, version: undefined };
    // Used again: move it to the young end of the LRU order.
    this.boundaries.delete(key);
    this.boundaries.set(key, boundary);
    return { after: boundary.last, offset: 0, version: boundary.version };
  }

  /**
   * Reads the page at `page.first` of `list`: after the remembered boundary when there is one, and
   * again by position when the list's version is not the boundary's; then remembers where the next
   * page starts. `read(after, offset)` reads rows after sort key `after` (undefined: from the
   * start), skipping `offset`, together with the list's version, from one snapshot; it gives
   * undefined when the list does not exist, and so does this. `keyOf` is a row's sort key.
   */
  async page<Row>(
    list: string,
    page: { first?: number; max?: number },
    read: (after: Key | undefined, offset: number) => Promise<{ version: number; rows: Row[] } | undefined>,
    keyOf: (row: Row) => Key,
  ): Promise<Row[] | undefined> {
    const start = this.start(list, page.first);
    let answer = await read(start.after, start.offset);
    if (answer === undefined) return undefined;
    if (start.version !== undefined && start.version !== answer.version) {
      // The list changed since the boundary was taken: the page is read again by position.
      answer = await read(undefined, Math.max(page.first ?? 0, 0));
      if (answer === undefined) return undefined;
    }
    const last = answer.rows.at(-1);
    this.remember(list, page, answer.version, answer.rows.length, last === undefined ? undefined : keyOf(last));
    return answer.rows;
  }

  /**
   * Remembers where the page after this one starts: the page at `first`, cut at `max`, of version
   * `version` of the list ended with sort key `last` after `rows` rows. Nothing is remembered for
   * an empty page or one that was not cut by `max` (the list ends there).
   */
  remember(list: string, page: { first?: number; max?: number }, version: number, rows: number, last: Key | undefined): void {
    if (last === undefined || page.max === undefined || page.max < 0 || rows < page.max) return;
    const key = positionKey(list, Math.max(page.first ?? 0, 0) + rows);
    this.boundaries.delete(key);
    this.boundaries.set(key, { version, last });
    if (this.boundaries.size > MAX_BOUNDARIES) this.boundaries.delete(this.boundaries.keys().next().value as string);
  }
}

/** The key of one position in one list. */
function positionKey(list: string, position: number): string {
  return `${list}\u0000${position}`;
}

/**
 * A list read in keyset order, as a store's SQL: `SELECT columns, sortKey AS sort_key FROM from
 * WHERE where [AND sortKey > boundary] ORDER BY sortKey`, where `sortKey` is unique within the
 * list (it is its whole order) and an index gives it.
 */
export interface KeysetQuery {
  /** The columns a page answers, e.g. `o.*`. */
  columns: string;
  /** The table, with its alias. */
  from: string;
  /** The sort key expression, e.g. `o.name`. */
  sortKey: string;
  /** The list's conditions (the filter), without the boundary. */
  where: string;
}

/**
 * Which list a filter pages: the scope (an organization's realm and id for its members, since ids
 * are unique only within a realm; a realm's name for its organizations or users) and every condition of the filter, that is all of it but `first` and
 * `max`. Filters that differ in any condition page different lists; two spellings of one condition
 * (an empty search and none) only keep separate boundaries.
 */
export function listKey(scope: string | readonly string[], filter: { first?: number; max?: number }): string {
  const { first: _first, max: _max, ...conditions } = filter;
  return JSON.stringify([scope, conditions]);
}
