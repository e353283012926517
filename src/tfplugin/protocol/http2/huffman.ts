/**
 * The Huffman code of HPACK string literals (RFC 7541 section 5.2 and Appendix B).
 *
 * The code of Appendix B is canonical: codes are handed out in order of (code length, symbol),
 * each one the previous plus one, shifted left when the length grows. So this module stores only
 * each symbol's code length, the one fact that cannot be derived, and builds the codes on first use.
 * Decoding uses the same canonical property: per code length, the codes form one contiguous range
 * of values, so a code is recognised by comparing the bits read so far with the first code of
 * their length and the number of codes of that length (two small typed arrays, no tree).
 *
 * {@link HpackError} lives here, not in `hpack.ts`, because `hpack.ts` imports this module: the
 * other way round would be a runtime import cycle. `hpack.ts` re-exports it.
 */

/** A header block that cannot be decoded: the connection must end with COMPRESSION_ERROR. */
export class HpackError extends Error {
  override readonly name = 'HpackError';
}

/** The end-of-string symbol: only ever the source of padding bits, never valid inside a string. */
export const EOS = 256;

/** The longest code (Appendix B): 30 bits, so a code always fits a 31-bit positive integer. */
const MAX_LENGTH = 30;

function chars(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * The symbols of each code length, as listed by RFC 7541 Appendix B (symbols 0-255 are bytes,
 * 256 is EOS). Exported so the tests can check that it covers every symbol exactly once.
 */
export const HUFFMAN_SYMBOLS_BY_LENGTH: ReadonlyArray<readonly [length: number, symbols: readonly number[]]> = [
  [5, chars('012aceiost')],
  [6, chars(' %-./3456789=A_bdfghlmnpru')],
  [7, chars(':BCDEFGHIJKLMNOPQRSTUVWYjkqvwxyz')],
  [8, chars('&*,;XZ')],
  [10, chars('!"()?')],
  [11, chars("'+|")],
  [12, chars('#>')],
  [13, [0, ...chars('$@[]~')]],
  [14, chars('^}')],
  [15, chars('<`{')],
  [19, [0x5c, 195, 208]],
  [20, [128, 130, 131, 162, 184, 194, 224, 226]],
  [21, [153, 161, 167, 172, 176, 177, 179, 209, 216, 217, 227, 229, 230]],
  [22, [129, 132, 133, 134, 136, 146, 154, 156, 160, 163, 164, 169, 170, 173, 178, 181, 185, 186, 187, 189, 190, 196, 198, 228, 232, 233]],
  [23, [1, 135, 137, 138, 139, 140, 141, 143, 147, 149, 150, 151, 152, 155, 157, 158, 165, 166, 168, 174, 175, 180, 182, 183, 188, 191, 197, 231, 239]],
  [24, [9, 142, 144, 145, 148, 159, 171, 206, 215, 225, 236, 237]],
  [25, [199, 207, 234, 235]],
  [26, [192, 193, 200, 201, 202, 205, 210, 213, 218, 219, 238, 240, 242, 243, 255]],
  [27, [203, 204, 211, 212, 214, 221, 222, 223, 241, 244, 245, 246, 247, 248, 250, 251, 252, 253, 254]],
  [28, [...range(2, 8), 11, 12, ...range(14, 21), ...range(23, 31), 127, 220, 249]],
  [30, [10, 13, 22, EOS]],
];

/** Code length by symbol. */
const LENGTHS = new Uint8Array(EOS + 1);
/** Code by symbol, right-aligned in its length. */
const CODES = new Uint32Array(EOS + 1);
/** How many codes have each length (index = length). */
const COUNT_BY_LENGTH = new Uint16Array(MAX_LENGTH + 1);
/** The symbols in canonical order, (length, symbol): the decoder's lookup of a code's rank. */
const SYMBOLS_IN_CODE_ORDER = new Uint16Array(EOS + 1);

let built = false;

/**
 * Fills the tables above, on first use rather than at load: the provider loads this module before
 * its handshake, and decodes its first header block only after it.
 */
function buildCode(): void {
  if (built) return;
  built = true;
  for (const [length, symbols] of HUFFMAN_SYMBOLS_BY_LENGTH) {
    for (const symbol of symbols) {
      // The construction below silently yields a wrong code if a symbol is listed twice or left
      // out, so a faulty table must fail its first use instead.
      if (LENGTHS[symbol] !== 0) throw new Error(`Huffman symbol ${symbol} is listed twice`);
      LENGTHS[symbol] = length;
    }
  }
  const missing = LENGTHS.findIndex((length) => length === 0);
  if (missing !== -1) throw new Error(`Huffman symbol ${missing} has no code length`);

  let rank = 0;
  for (let length = 1; length <= MAX_LENGTH; length++) {
    for (let symbol = 0; symbol <= EOS; symbol++) {
      if (LENGTHS[symbol] === length) {
        SYMBOLS_IN_CODE_ORDER[rank++] = symbol;
        COUNT_BY_LENGTH[length]!++;
      }
    }
  }

  let code = 0;
  let previousLength = LENGTHS[SYMBOLS_IN_CODE_ORDER[0]!]!;
  for (let i = 0; i <= EOS; i++) {
    const symbol = SYMBOLS_IN_CODE_ORDER[i]!;
    const length = LENGTHS[symbol]!;
    if (i > 0) code = (code + 1) << (length - previousLength);
    CODES[symbol] = code;
    previousLength = length;
  }
}

/** The code of one symbol (0-255 or {@link EOS}), right-aligned in `length` bits. */
export function huffmanCode(symbol: number): { code: number; length: number } {
  buildCode();
  if (!Number.isInteger(symbol) || symbol < 0 || symbol > EOS) throw new RangeError(`no Huffman symbol ${symbol}`);
  return { code: CODES[symbol]!, length: LENGTHS[symbol]! };
}

/**
 * Decodes a Huffman-encoded HPACK string (RFC 7541 section 5.2 and Appendix B) into a latin1
 * string (one character per decoded byte).
 * @throws HpackError when the input contains EOS, or ends with padding that is longer than 7 bits
 * or not all ones (the most significant bits of EOS), as section 5.2 requires.
 */
export function huffmanDecode(bytes: Uint8Array): string {
  buildCode();
  // Every code is at least 5 bits long, which bounds the output.
  const out = Buffer.allocUnsafe(Math.floor((bytes.length * 8) / 5));
  let written = 0;
  // The bits of the code being read, their number, the first code of that length and the rank
  // (in SYMBOLS_IN_CODE_ORDER) of that first code.
  let code = 0;
  let length = 0;
  let first = 0;
  let rank = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      code = (code << 1) | ((byte >>> bit) & 1);
      length++;
      const count = COUNT_BY_LENGTH[length]!;
      if (code - first < count) {
        const symbol = SYMBOLS_IN_CODE_ORDER[rank + code - first]!;
        if (symbol === EOS) throw new HpackError('Huffman string contains the EOS symbol');
        out[written++] = symbol;
        code = length = first = rank = 0;
      } else {
        // Not a code of this length: the codes one bit longer start right after the last code of
        // this length, shifted. The code is complete (Kraft sum 1), so length never passes 30.
        rank += count;
        first = (first + count) << 1;
      }
    }
  }
  // What is left is padding: a prefix of EOS (all ones), shorter than a byte.
  if (length > 7) throw new HpackError(`Huffman padding of ${length} bits (at most 7 allowed)`);
  if (code !== (1 << length) - 1) throw new HpackError('Huffman padding is not all ones');
  return out.toString('latin1', 0, written);
}

/** The number of bytes {@link huffmanEncode} produces for `text`, to choose between it and raw. */
export function huffmanEncodedLength(text: string): number {
  buildCode();
  let bits = 0;
  for (let i = 0; i < text.length; i++) bits += LENGTHS[latin1Code(text, i)]!;
  return Math.ceil(bits / 8);
}

/**
 * Huffman-encodes a latin1 string (each character one byte, 0-255), padding the last byte with
 * the most significant bits of EOS as RFC 7541 section 5.2 requires.
 * @throws RangeError for a character above U+00FF, which has no byte to encode.
 */
export function huffmanEncode(text: string): Buffer {
  const out = Buffer.alloc(huffmanEncodedLength(text));
  let written = 0;
  // Bits of the byte being filled, and how many.
  let pending = 0;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const symbol = text.charCodeAt(i);
    const code = CODES[symbol]!;
    let left = LENGTHS[symbol]!;
    while (left > 0) {
      const take = Math.min(8 - used, left);
      left -= take;
      pending = (pending << take) | ((code >>> left) & ((1 << take) - 1));
      used += take;
      if (used === 8) {
        out[written++] = pending;
        pending = used = 0;
      }
    }
  }
  if (used > 0) out[written++] = (pending << (8 - used)) | ((1 << (8 - used)) - 1);
  return out;
}

function latin1Code(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code > 0xff) throw new RangeError(`character U+${code.toString(16).padStart(4, '0')} at ${i} is not latin1`);
  return code;
}
