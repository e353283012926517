/**
 * HPACK (RFC 7541), the header compression of HTTP/2: a decoder for the header blocks a client
 * sends, and a stateless encoder for the headers and trailers the server answers with.
 *
 * The encoder never inserts into the dynamic table (every field is a static-table index or a
 * "literal without indexing"), so the server keeps no encoder state and never has to follow the
 * client's SETTINGS_HEADER_TABLE_SIZE. The decoder must keep the dynamic table the client's encoder
 * fills, one per connection, and must see every header block of the connection in order.
 *
 * Strings are latin1 throughout: HPACK carries octets, and one character per octet keeps sizes
 * (which the table accounting counts in octets) equal to string lengths.
 */
import { HpackError, huffmanDecode } from './huffman';

export { HpackError };

/** Appendix A: the static table, index 1 first. */
const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/** The per-entry overhead of the table size accounting (section 4.1). */
const ENTRY_OVERHEAD = 32;

/** The largest integer this decoder accepts; larger ones are the "implementation limit" of 5.1. */
const MAX_INTEGER = 2 ** 31;

/**
 * Continuation octets that can still carry a value up to {@link MAX_INTEGER}; a longer encoding
 * can only add zero bits or overflow, and an endless run of 0x80 octets must not be accepted.
 */
const MAX_CONTINUATION_OCTETS = 5;

/** The dynamic table of section 2.3.2: newest entry last in `entries`, newest first in the index. */
class DynamicTable {
  private readonly entries: Array<[string, string]> = [];
  /** Sum of the entries' sizes (section 4.1). */
  size = 0;

  constructor(public maxSize: number) {}

  get length(): number {
    return this.entries.length;
  }

  /** The entry at `index`, 1 being the newest; undefined beyond the table. */
  get(index: number): [string, string] | undefined {
    return this.entries[this.entries.length - index];
  }

  /** Newest first, as the index space orders them. */
  snapshot(): Array<[string, string]> {
    return this.entries.map(([name, value]): [string, string] => [name, value]).reverse();
  }

  /** Section 4.4: evict the oldest until the new entry fits; an entry larger than the table empties it. */
  add(name: string, value: string): void {
    const entrySize = name.length + value.length + ENTRY_OVERHEAD;
    this.evictTo(this.maxSize - entrySize);
    if (entrySize <= this.maxSize) {
      this.entries.push([name, value]);
      this.size += entrySize;
    }
  }

  /** Section 4.3: a smaller maximum evicts the oldest entries until the table fits. */
  resize(maxSize: number): void {
    this.maxSize = maxSize;
    this.evictTo(maxSize);
  }

  private evictTo(limit: number): void {
    // The table holds at most maxSize / 32 entries, so shifting the array stays cheap.
    while (this.size > limit && this.entries.length > 0) {
      const [name, value] = this.entries.shift()!;
      this.size -= name.length + value.length + ENTRY_OVERHEAD;
    }
  }
}

/** Reads the representations of one header block. */
class BlockReader {
  private pos = 0;
  private readonly buf: Buffer;

  constructor(block: Uint8Array) {
    this.buf = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  byte(): number {
    if (this.pos >= this.buf.length) throw new HpackError('header block truncated');
    return this.buf[this.pos++]!;
  }

  /** Section 5.1: an integer whose first octet (already read) keeps its value in the low `prefixBits`. */
  integer(first: number, prefixBits: number): number {
    const mask = (1 << prefixBits) - 1;
    let value = first & mask;
    if (value < mask) return value;
    for (let octets = 0, shift = 0; ; octets++, shift += 7) {
      if (octets === MAX_CONTINUATION_OCTETS) throw new HpackError('integer encoding too long');
      const byte = this.byte();
      // Arithmetic, not bit operators: these are 32-bit and would wrap before the check below.
      value += (byte & 0x7f) * 2 ** shift;
      if (value > MAX_INTEGER) throw new HpackError(`integer above 2^31`);
      if ((byte & 0x80) === 0) return value;
    }
  }

  /** Section 5.2: a string literal, Huffman-encoded when the H bit is set, as latin1. */
  string(): string {
    const first = this.byte();
    const length = this.integer(first, 7);
    if (length > this.buf.length - this.pos) throw new HpackError('string literal truncated');
    const start = this.pos;
    this.pos += length;
    if (first & 0x80) return huffmanDecode(this.buf.subarray(start, this.pos));
    return this.buf.toString('latin1', start, this.pos);
  }
}

/** Decodes the header blocks of one HTTP/2 connection (one dynamic table per connection, per direction). */
export class HpackDecoder {
  private readonly table: DynamicTable;

  /**
   * @param maxTableSize the SETTINGS_HEADER_TABLE_SIZE we advertised (default 4096): the table's
   * initial maximum and the limit of dynamic table size updates.
   * @param maxHeaderListSize limit of the decoded list's size (sum of name+value+32 per field, RFC
   * 7540 6.5.2), default 65536: above it decode throws HpackError.
   */
  constructor(
    private readonly maxTableSize = 4096,
    private readonly maxHeaderListSize = 65536,
  ) {
    this.table = new DynamicTable(maxTableSize);
  }

  /** The dynamic table's current size in octets (section 4.1), for tests and diagnostics. */
  get dynamicTableSize(): number {
    return this.table.size;
  }

  /** A copy of the dynamic table's entries, newest (index 62) first, for tests and diagnostics. */
  dynamicTableEntries(): Array<[string, string]> {
    return this.table.snapshot();
  }

  /**
   * Decodes one complete header block (HEADERS + CONTINUATION payloads joined). Returns [name, value]
   * pairs in order; names as sent (HTTP/2 requires lowercase; they are not changed). Values are
   * decoded as latin1 (byte = char).
   * @throws HpackError on any malformed input: truncated integer/string, integer overflow
   * (> 2^31), index 0 or out of range, invalid Huffman (padding longer than 7 bits, padding not
   * all 1s, EOS symbol present), dynamic table size update above maxTableSize or not at the start
   * of the block, header list too large. The decoder's table is then unusable, as is the
   * connection (COMPRESSION_ERROR).
   */
  decode(block: Uint8Array): Array<[string, string]> {
    const reader = new BlockReader(block);
    const fields: Array<[string, string]> = [];
    let listSize = 0;
    while (!reader.done) {
      const first = reader.byte();
      let name: string;
      let value: string;
      if (first & 0x80) {
        // 6.1 indexed header field.
        const index = reader.integer(first, 7);
        if (index === 0) throw new HpackError('indexed header field with index 0');
        [name, value] = this.lookup(index);
      } else if (first & 0x40) {
        // 6.2.1 literal with incremental indexing.
        name = this.literalName(reader, reader.integer(first, 6));
        value = reader.string();
        this.table.add(name, value);
      } else if (first & 0x20) {
        // 6.3 dynamic table size update; 4.2 allows it only before the block's first field.
        if (fields.length > 0) throw new HpackError('dynamic table size update after a header field');
        const size = reader.integer(first, 5);
        if (size > this.maxTableSize) throw new HpackError(`dynamic table size update to ${size}, above ${this.maxTableSize}`);
        this.table.resize(size);
        continue;
      } else {
        // 6.2.2 without indexing (0000) and 6.2.3 never indexed (0001): the same for a decoder
        // that re-encodes nothing.
        name = this.literalName(reader, reader.integer(first, 4));
        value = reader.string();
      }
      listSize += name.length + value.length + ENTRY_OVERHEAD;
      if (listSize > this.maxHeaderListSize) {
        throw new HpackError(`header list larger than ${this.maxHeaderListSize} octets`);
      }
      fields.push([name, value]);
    }
    return fields;
  }

  /** The name of a literal: index 0 means a string literal follows, otherwise an indexed name. */
  private literalName(reader: BlockReader, index: number): string {
    return index === 0 ? reader.string() : this.lookup(index)[0];
  }

  /** Section 2.3.3: 1..61 static, then the dynamic table newest first. */
  private lookup(index: number): readonly [string, string] {
    const entry = index <= STATIC_TABLE.length ? STATIC_TABLE[index - 1] : this.table.get(index - STATIC_TABLE.length);
    if (entry === undefined) throw new HpackError(`index ${index} beyond the tables (${STATIC_TABLE.length + this.table.length} entries)`);
    return entry;
  }
}

/** Static index of each name (its first entry), and of each exact (name, value) entry. */
const STATIC_NAME_INDEX = new Map<string, number>();
const STATIC_FIELD_INDEX = new Map<string, Map<string, number>>();
STATIC_TABLE.forEach(([name, value], i) => {
  if (!STATIC_NAME_INDEX.has(name)) STATIC_NAME_INDEX.set(name, i + 1);
  let values = STATIC_FIELD_INDEX.get(name);
  if (values === undefined) STATIC_FIELD_INDEX.set(name, (values = new Map()));
  values.set(value, i + 1);
});

/** Section 5.1: `value` with a `prefixBits` prefix, the first octet's high bits set to `flags`. */
function encodeInteger(out: number[], value: number, prefixBits: number, flags: number): void {
  const mask = (1 << prefixBits) - 1;
  if (value < mask) {
    out.push(flags | value);
    return;
  }
  out.push(flags | mask);
  let rest = value - mask;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** Section 5.2 without Huffman: length, then the latin1 octets. */
function encodeString(parts: Buffer[], text: string): void {
  for (let i = 0; i < text.length; i++) {
    // Buffer's latin1 encoding would silently keep only the low byte of a wider character.
    if (text.charCodeAt(i) > 0xff) throw new RangeError(`header text ${JSON.stringify(text)} is not latin1`);
  }
  const prefix: number[] = [];
  encodeInteger(prefix, text.length, 7, 0x00);
  parts.push(Buffer.from(prefix), Buffer.from(text, 'latin1'));
}

/**
 * Encodes response headers/trailers: each field as "literal without indexing" (never touches a
 * dynamic table, so it needs no encoder state), except a field whose name AND value equal a
 * static-table entry, which is sent as that index (e.g. [':status','200'] -> 0x88). A name found
 * in the static table is sent by its index; others as literal names. Strings without Huffman.
 * Names are sent as given: the caller supplies them lowercase, as HTTP/2 requires.
 * @returns the header block, to be split into HEADERS and CONTINUATION frames by the caller.
 * @throws RangeError for a name or value with a character above U+00FF.
 */
export function encodeHeaderBlock(headers: ReadonlyArray<readonly [string, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of headers) {
    const exact = STATIC_FIELD_INDEX.get(name)?.get(value);
    if (exact !== undefined) {
      parts.push(Buffer.of(0x80 | exact));
      continue;
    }
    const nameIndex = STATIC_NAME_INDEX.get(name);
    const prefix: number[] = [];
    encodeInteger(prefix, nameIndex ?? 0, 4, 0x00);
    parts.push(Buffer.from(prefix));
    if (nameIndex === undefined) encodeString(parts, name);
    encodeString(parts, value);
  }
  return Buffer.concat(parts);
}
