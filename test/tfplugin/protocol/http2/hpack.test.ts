import * as http2 from 'node:http2';
import * as net from 'node:net';
import { CLIENT_PREFACE as PREFACE, Flag as FLAG, frame, FrameType as FRAME } from '../../../../src/tfplugin/protocol/http2/frames';
import { HpackDecoder, HpackError, encodeHeaderBlock } from '../../../../src/tfplugin/protocol/http2/hpack';
import {
  EOS,
  HUFFMAN_SYMBOLS_BY_LENGTH,
  huffmanCode,
  huffmanDecode,
  huffmanEncode,
} from '../../../../src/tfplugin/protocol/http2/huffman';

/** Hex as the RFC prints it (groups of four digits, line breaks) to bytes. */
function hex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

function bytesToLatin1(from: number, to: number): string {
  let text = '';
  for (let byte = from; byte <= to; byte++) text += String.fromCharCode(byte);
  return text;
}

/** A deterministic generator (xorshift32), so a failing case is the same on every run. */
function randomBytes(seed: number, length: number, min = 0, max = 255): Buffer {
  const out = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = min + ((state >>> 0) % (max - min + 1));
  }
  return out;
}

describe('Huffman code (RFC 7541 Appendix B)', () => {
  it('gives every symbol 0..256 exactly one code length', () => {
    const seen = new Array<number>(EOS + 1).fill(0);
    for (const [, symbols] of HUFFMAN_SYMBOLS_BY_LENGTH) {
      for (const symbol of symbols) {
        expect(symbol).toBeGreaterThanOrEqual(0);
        expect(symbol).toBeLessThanOrEqual(EOS);
        seen[symbol]!++;
      }
    }
    expect(seen.filter((count) => count !== 1)).toEqual([]);
  });

  it('is complete: the Kraft sum of 2^-length is exactly 1', () => {
    // In units of 2^-30 (the longest code), so the sum is an exact integer.
    let sum = 0;
    for (let symbol = 0; symbol <= EOS; symbol++) sum += 2 ** (30 - huffmanCode(symbol).length);
    expect(sum).toBe(2 ** 30);
  });

  it.each([
    ['0', 0x30, 0b00000, 5],
    ['space', 0x20, 0b010100, 6],
    [':', 0x3a, 0b1011100, 7],
    ['&', 0x26, 0b11111000, 8],
    ['NUL', 0, 0x1ff8, 13],
    ['\\', 0x5c, 0x7fff0, 19],
    ['128', 128, 0xfffe6, 20],
    ['1', 1, 0x7fffd8, 23],
    ['9', 9, 0xffffea, 24],
    ['2', 2, 0xfffffe2, 28],
    ['10', 10, 0x3ffffffc, 30],
    ['EOS', EOS, 0x3fffffff, 30],
  ])('builds the known code of %s', (_label, symbol, code, length) => {
    expect(huffmanCode(symbol)).toEqual({ code, length });
  });

  it('is prefix-free: no code is a prefix of another', () => {
    const codes = Array.from({ length: EOS + 1 }, (_, symbol) => huffmanCode(symbol));
    // Left-aligned to 30 bits, each code owns the range [value, value + 2^(30-length)); sorted,
    // the ranges must not overlap (with the Kraft sum of 1 they tile the whole space).
    const ranges = codes
      .map(({ code, length }) => [code * 2 ** (30 - length), 2 ** (30 - length)] as const)
      .sort((a, b) => a[0] - b[0]);
    let next = 0;
    for (const [start, size] of ranges) {
      expect(start).toBe(next);
      next = start + size;
    }
    expect(next).toBe(2 ** 30);
  });

  it('encodes the strings of RFC 7541 Appendix C.4 and C.6 to the printed bytes', () => {
    expect(huffmanEncode('www.example.com')).toEqual(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff'));
    expect(huffmanEncode('no-cache')).toEqual(hex('a8eb 1064 9cbf'));
    expect(huffmanEncode('custom-key')).toEqual(hex('25a8 49e9 5ba9 7d7f'));
    expect(huffmanEncode('custom-value')).toEqual(hex('25a8 49e9 5bb8 e8b4 bf'));
    expect(huffmanEncode('302')).toEqual(hex('6402'));
    expect(huffmanEncode('private')).toEqual(hex('aec3 771a 4b'));
    expect(huffmanDecode(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff'))).toBe('www.example.com');
  });

  it('round-trips every byte value, alone and all together', () => {
    for (let byte = 0; byte <= 255; byte++) {
      const text = String.fromCharCode(byte);
      expect(huffmanDecode(huffmanEncode(text))).toBe(text);
    }
    const all = bytesToLatin1(0, 255);
    expect(huffmanDecode(huffmanEncode(all))).toBe(all);
    expect(huffmanDecode(huffmanEncode([...all].reverse().join('')))).toBe([...all].reverse().join(''));
  });

  it('round-trips random strings of every length up to 200', () => {
    for (let length = 0; length <= 200; length++) {
      const text = randomBytes(length + 1, length).toString('latin1');
      expect(huffmanDecode(huffmanEncode(text))).toBe(text);
    }
  });

  it('pads the last byte with ones and adds no byte when the bits end on a boundary', () => {
    expect(huffmanEncode('a')).toEqual(Buffer.of(0b00011111)); // 00011 + 111
    expect(huffmanEncode('aaaaaaaa')).toHaveLength(5); // 40 bits, no padding
    expect(huffmanEncode('')).toHaveLength(0);
    expect(huffmanDecode(new Uint8Array(0))).toBe('');
  });

  it('rejects EOS inside the string', () => {
    expect(() => huffmanDecode(hex('ffff ffff'))).toThrow(HpackError);
    // 'a', then EOS, then its padding.
    const eos = Buffer.concat([huffmanEncode('aaaaaaaa'), hex('ffff fffc')]);
    expect(() => huffmanDecode(eos)).toThrow(/EOS/);
  });

  it('rejects padding of 8 bits or more', () => {
    expect(() => huffmanDecode(hex('ff'))).toThrow(HpackError);
    expect(() => huffmanDecode(Buffer.concat([huffmanEncode('a'), hex('ff')]))).toThrow(/padding of 11 bits/);
    expect(() => huffmanDecode(Buffer.concat([huffmanEncode('aaaaaaaa'), hex('ff')]))).toThrow(/padding of 8 bits/);
  });

  it('rejects padding that is not all ones', () => {
    // 'a' is 00011; then 000 is not a prefix of EOS.
    expect(() => huffmanDecode(Buffer.of(0b00011000))).toThrow(/not all ones/);
    expect(() => huffmanDecode(Buffer.of(0b00011110))).toThrow(/not all ones/);
  });

  it('refuses to encode a character above U+00FF', () => {
    expect(() => huffmanEncode('\u0100')).toThrow(RangeError);
  });
});

describe('HpackDecoder: RFC 7541 Appendix C', () => {
  it('C.2.1 literal with indexing adds to the dynamic table', () => {
    const decoder = new HpackDecoder();
    expect(decoder.decode(hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572'))).toEqual([
      ['custom-key', 'custom-header'],
    ]);
    expect(decoder.dynamicTableEntries()).toEqual([['custom-key', 'custom-header']]);
    expect(decoder.dynamicTableSize).toBe(55);
  });

  it('C.2.2 literal without indexing leaves the table empty', () => {
    const decoder = new HpackDecoder();
    expect(decoder.decode(hex('040c 2f73 616d 706c 652f 7061 7468'))).toEqual([[':path', '/sample/path']]);
    expect(decoder.dynamicTableSize).toBe(0);
  });

  it('C.2.3 literal never indexed leaves the table empty', () => {
    const decoder = new HpackDecoder();
    expect(decoder.decode(hex('1008 7061 7373 776f 7264 0673 6563 7265 74'))).toEqual([['password', 'secret']]);
    expect(decoder.dynamicTableSize).toBe(0);
  });

  it('C.2.4 indexed field', () => {
    const decoder = new HpackDecoder();
    expect(decoder.decode(hex('82'))).toEqual([[':method', 'GET']]);
    expect(decoder.dynamicTableSize).toBe(0);
  });

  const requests = [
    {
      fields: [
        [':method', 'GET'],
        [':scheme', 'http'],
        [':path', '/'],
        [':authority', 'www.example.com'],
      ],
      table: [[':authority', 'www.example.com']],
      size: 57,
    },
    {
      fields: [
        [':method', 'GET'],
        [':scheme', 'http'],
        [':path', '/'],
        [':authority', 'www.example.com'],
        ['cache-control', 'no-cache'],
      ],
      table: [
        ['cache-control', 'no-cache'],
        [':authority', 'www.example.com'],
      ],
      size: 110,
    },
    {
      fields: [
        [':method', 'GET'],
        [':scheme', 'https'],
        [':path', '/index.html'],
        [':authority', 'www.example.com'],
        ['custom-key', 'custom-value'],
      ],
      table: [
        ['custom-key', 'custom-value'],
        ['cache-control', 'no-cache'],
        [':authority', 'www.example.com'],
      ],
      size: 164,
    },
  ];

  it.each([
    ['C.3 requests without Huffman', ['8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', '8286 84be 5808 6e6f 2d63 6163 6865', '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65']],
    ['C.4 requests with Huffman', ['8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', '8286 84be 5886 a8eb 1064 9cbf', '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf']],
  ])('%s: one decoder across the three, the later ones indexing the earlier ones\' entries', (_name, blocks) => {
    const decoder = new HpackDecoder();
    blocks.forEach((block, i) => {
      expect(decoder.decode(hex(block))).toEqual(requests[i]!.fields);
      expect(decoder.dynamicTableEntries()).toEqual(requests[i]!.table);
      expect(decoder.dynamicTableSize).toBe(requests[i]!.size);
    });
  });

  const date21 = 'Mon, 21 Oct 2013 20:13:21 GMT';
  const date22 = 'Mon, 21 Oct 2013 20:13:22 GMT';
  const location = 'https://www.example.com';
  const cookie = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
  const responses = [
    {
      fields: [[':status', '302'], ['cache-control', 'private'], ['date', date21], ['location', location]],
      table: [['location', location], ['date', date21], ['cache-control', 'private'], [':status', '302']],
      size: 222,
    },
    {
      // (':status', '302') is evicted to make room for (':status', '307').
      fields: [[':status', '307'], ['cache-control', 'private'], ['date', date21], ['location', location]],
      table: [[':status', '307'], ['location', location], ['date', date21], ['cache-control', 'private']],
      size: 222,
    },
    {
      fields: [
        [':status', '200'],
        ['cache-control', 'private'],
        ['date', date22],
        ['location', location],
        ['content-encoding', 'gzip'],
        ['set-cookie', cookie],
      ],
      table: [['set-cookie', cookie], ['content-encoding', 'gzip'], ['date', date22]],
      size: 215,
    },
  ];

  it.each([
    [
      'C.5 responses without Huffman',
      [
        `4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32
         3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d`,
        '4803 3330 37c1 c0bf',
        `88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970
         7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61
         6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31`,
      ],
    ],
    [
      'C.6 responses with Huffman',
      [
        `4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad
         1718 63c7 8f0b 97c8 e9ae 82ae 43d3`,
        '4883 640e ffc1 c0bf',
        `88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2
         e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07`,
      ],
    ],
  ])('%s: a 256-octet table with evictions', (_name, blocks) => {
    const decoder = new HpackDecoder(256);
    blocks.forEach((block, i) => {
      expect(decoder.decode(hex(block))).toEqual(responses[i]!.fields);
      expect(decoder.dynamicTableEntries()).toEqual(responses[i]!.table);
      expect(decoder.dynamicTableSize).toBe(responses[i]!.size);
    });
  });
});

describe('HpackDecoder: dynamic table rules', () => {
  /** Section 5.1, written out here independently of the encoder under test. */
  function integer(value: number, prefixBits: number, flags: number): number[] {
    const max = 2 ** prefixBits - 1;
    if (value < max) return [flags | value];
    const out = [flags | max];
    for (value -= max; value >= 128; value = Math.floor(value / 128)) out.push(128 + (value % 128));
    return [...out, value];
  }

  /** A literal with incremental indexing and a new name, without Huffman (6.2.1 and 5.2). */
  function indexed(name: string, value: string): Buffer {
    return Buffer.concat([
      Buffer.of(0x40, ...integer(name.length, 7, 0)),
      Buffer.from(name, 'latin1'),
      Buffer.of(...integer(value.length, 7, 0)),
      Buffer.from(value, 'latin1'),
    ]);
  }

  it('C.1 integers: 1337 with a 5-bit prefix, as a table size update', () => {
    const decoder = new HpackDecoder(4096);
    // 1f 9a 0a is C.1.2; the size update flag 001 makes it 3f 9a 0a.
    expect(decoder.decode(hex('3f9a0a'))).toEqual([]);
    decoder.decode(indexed('n', 'x'.repeat(1337 - 33)));
    expect(decoder.dynamicTableSize).toBe(1337);
    decoder.decode(indexed('n', 'x'.repeat(1337 - 32)));
    expect(decoder.dynamicTableSize).toBe(0);
  });

  it('numbers the dynamic table after the static one, newest first', () => {
    const decoder = new HpackDecoder();
    decoder.decode(Buffer.concat([indexed('a', '1'), indexed('b', '2')]));
    expect(decoder.decode(hex('be bf'))).toEqual([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect(() => decoder.decode(hex('c0'))).toThrow(/index 64 beyond/);
  });

  it('evicts the oldest entries to make room, sizes counting name + value + 32', () => {
    const decoder = new HpackDecoder(100);
    decoder.decode(indexed('aaaa', 'bbbb')); // 40
    decoder.decode(indexed('cccc', 'dddd')); // 80
    decoder.decode(indexed('eeee', 'ffff')); // 120 > 100: the oldest goes
    expect(decoder.dynamicTableEntries()).toEqual([['eeee', 'ffff'], ['cccc', 'dddd']]);
    expect(decoder.dynamicTableSize).toBe(80);
  });

  it('an entry larger than the table empties it, is not added, but is still a field', () => {
    const decoder = new HpackDecoder(64);
    decoder.decode(indexed('a', 'b'));
    expect(decoder.decode(indexed('name', 'v'.repeat(40)))).toEqual([['name', 'v'.repeat(40)]]);
    expect(decoder.dynamicTableEntries()).toEqual([]);
    expect(decoder.dynamicTableSize).toBe(0);
  });

  it('keeps the name of an entry evicted by the very entry that references it (4.4)', () => {
    const decoder = new HpackDecoder(64);
    decoder.decode(indexed('aaaa', 'b')); // 37
    // Name index 62 (01 111110), value of 27 octets: 4 + 27 + 32 = 63 forces out entry 62.
    const block = Buffer.concat([Buffer.of(0x7e, 27), Buffer.from('x'.repeat(27))]);
    expect(decoder.decode(block)).toEqual([['aaaa', 'x'.repeat(27)]]);
    expect(decoder.dynamicTableEntries()).toEqual([['aaaa', 'x'.repeat(27)]]);
  });

  it('a size update to 0 empties the table, and updates may repeat at the start of a block', () => {
    const decoder = new HpackDecoder();
    decoder.decode(indexed('a', '1'));
    expect(decoder.decode(hex('20 3fe11f 82'))).toEqual([[':method', 'GET']]);
    expect(decoder.dynamicTableEntries()).toEqual([]);
    expect(() => decoder.decode(hex('be'))).toThrow(HpackError);
  });

  it('a smaller size update evicts what no longer fits', () => {
    const decoder = new HpackDecoder();
    decoder.decode(Buffer.concat([indexed('aaaa', 'bbbb'), indexed('cccc', 'dddd')])); // 80
    decoder.decode(hex('3f19')); // 31 + 25 = 56
    expect(decoder.dynamicTableEntries()).toEqual([['cccc', 'dddd']]);
  });
});

describe('HpackDecoder: malformed input throws HpackError', () => {
  const cases: Array<[string, string, HpackDecoder?]> = [
    ['truncated integer (prefix full, no continuation)', 'ff'],
    ['truncated integer (continuation bit on the last octet)', 'ff 80'],
    ['integer above 2^31', 'ff ff ff ff ff 0f'],
    ['integer encoding with too many octets', 'ff 80 80 80 80 80 00'],
    ['index 0', '80'],
    ['index beyond the static table with an empty dynamic table', 'be'],
    ['literal name index beyond the tables', '0f 2f 01 61'],
    ['truncated string length', '00 7f'],
    ['truncated name', '40 05 61'],
    ['truncated value', '00 01 61 02 62'],
    ['missing value', '00 01 61'],
    ['Huffman value containing EOS', '00 01 61 84 ffff ffff'],
    ['Huffman value with 8 bits of padding', '00 01 61 82 1f ff'],
    ['Huffman value with padding not all ones', '00 01 61 81 18'],
    ['size update above the maximum (4097)', '3f e2 1f'],
    ['size update after a field', '82 20'],
    ['size update between fields', '82 3f e1 1f 82'],
    ['size update above a smaller advertised maximum', '3f 62', new HpackDecoder(100)],
    ['header list above maxHeaderListSize', '82 82 82', new HpackDecoder(4096, 2 * (7 + 3 + 32))],
  ];

  it.each(cases)('%s', (_name, block, decoder = new HpackDecoder()) => {
    expect(() => decoder.decode(hex(block))).toThrow(HpackError);
  });

  it('accepts the limits themselves: size update to exactly the maximum, list of exactly the maximum size', () => {
    expect(new HpackDecoder(4096).decode(hex('3f e1 1f'))).toEqual([]);
    expect(new HpackDecoder(4096, 3 * 42).decode(hex('82 82 82'))).toHaveLength(3);
    // 2^31 itself is still accepted as an integer (here an index, so it fails only as out of range).
    expect(() => new HpackDecoder().decode(hex('ff 81 ff ff ff 07'))).toThrow(/index 2147483648 beyond/);
  });

  it('HpackError is an Error with its own name', () => {
    const error = (() => {
      try {
        new HpackDecoder().decode(hex('80'));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('HpackError');
  });
});

describe('encodeHeaderBlock', () => {
  it('sends a field equal to a static entry as its index', () => {
    expect(encodeHeaderBlock([[':status', '200']])).toEqual(Buffer.of(0x88));
    expect(encodeHeaderBlock([[':status', '204'], [':status', '500']])).toEqual(Buffer.of(0x89, 0x8e));
  });

  it('sends other fields as literals without indexing, static names by index', () => {
    // content-type is index 31: 0000 1111, then 31 - 15 = 16.
    expect(encodeHeaderBlock([['content-type', 'text/plain']])).toEqual(
      Buffer.concat([Buffer.of(0x0f, 0x10, 10), Buffer.from('text/plain')]),
    );
    expect(encodeHeaderBlock([[':status', '302']])).toEqual(Buffer.concat([Buffer.of(0x08, 3), Buffer.from('302')]));
    expect(encodeHeaderBlock([['x-a', 'b']])).toEqual(Buffer.concat([Buffer.of(0x00, 3), Buffer.from('x-a'), Buffer.of(1), Buffer.from('b')]));
  });

  it('round-trips through HpackDecoder without touching its dynamic table', () => {
    const headers: Array<[string, string]> = [
      [':status', '200'],
      [':status', '418'],
      ['content-type', 'application/grpc'],
      ['www-authenticate', 'Basic'],
      ['accept-encoding', 'gzip, deflate'],
      ['grpc-status', '0'],
      ['grpc-message', ''],
      ['x-latin1', bytesToLatin1(0, 255)],
      ['x-long', 'v'.repeat(70_000)],
      ['', ''],
    ];
    const decoder = new HpackDecoder(4096, 1 << 20);
    expect(decoder.decode(encodeHeaderBlock(headers))).toEqual(headers);
    expect(decoder.dynamicTableSize).toBe(0);
    expect(encodeHeaderBlock([])).toHaveLength(0);
  });

  it('refuses a character above U+00FF instead of truncating it', () => {
    expect(() => encodeHeaderBlock([['x-a', 'caf\u0113']])).toThrow(RangeError);
    expect(() => encodeHeaderBlock([['x-\u0100', 'a']])).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Against nghttp2 (node:http2): a raw TCP server reads what node's client sends.

interface RawServer {
  port: number;
  /** Header blocks in arrival order. */
  blocks: Array<{ streamId: number; block: Buffer }>;
  continuationFrames: number;
  /** Problems found while parsing (the socket callbacks cannot fail the test themselves). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A minimal HTTP/2 server side: sends an empty SETTINGS, acknowledges the client's, joins
 * HEADERS + CONTINUATION fragments (RFC 7540 6.2: without padding and priority fields) and hands
 * each complete block to `onBlock`.
 */
async function startRawServer(onBlock?: (socket: net.Socket, streamId: number, block: Buffer) => void): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const state: RawServer = { port: 0, blocks: [], continuationFrames: 0, problems: [], close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.write(frame(FRAME.SETTINGS, 0, 0));
    let buffered = Buffer.alloc(0);
    let prefaceRead = false;
    let open: { streamId: number; fragments: Buffer[] } | undefined;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!prefaceRead) {
        if (buffered.length < PREFACE.length) return;
        if (!buffered.subarray(0, PREFACE.length).equals(PREFACE)) state.problems.push('bad preface');
        buffered = buffered.subarray(PREFACE.length);
        prefaceRead = true;
      }
      while (buffered.length >= 9) {
        const length = buffered.readUIntBE(0, 3);
        if (buffered.length < 9 + length) break;
        const type = buffered[3]!;
        const flags = buffered[4]!;
        const streamId = buffered.readUInt32BE(5) & 0x7fffffff;
        let payload = buffered.subarray(9, 9 + length);
        buffered = buffered.subarray(9 + length);
        if (open !== undefined && type !== FRAME.CONTINUATION) state.problems.push(`frame ${type} inside a header block`);
        if (type === FRAME.SETTINGS && (flags & FLAG.ACK) === 0) {
          socket.write(frame(FRAME.SETTINGS, FLAG.ACK, 0));
        } else if (type === FRAME.HEADERS) {
          let start = 0;
          let end = payload.length;
          if (flags & FLAG.PADDED) {
            end -= payload[0]!;
            start = 1;
          }
          if (flags & FLAG.PRIORITY) start += 5;
          payload = payload.subarray(start, end);
          open = { streamId, fragments: [payload] };
        } else if (type === FRAME.CONTINUATION) {
          state.continuationFrames++;
          if (open === undefined || open.streamId !== streamId) state.problems.push('stray CONTINUATION');
          else open.fragments.push(payload);
        }
        if ((type === FRAME.HEADERS || type === FRAME.CONTINUATION) && flags & FLAG.END_HEADERS && open !== undefined) {
          const block = Buffer.concat(open.fragments);
          state.blocks.push({ streamId: open.streamId, block });
          onBlock?.(socket, open.streamId, block);
          open = undefined;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as net.AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Interleaves 10 five-bit symbols after each character, so that the Huffman form is shorter than
 * the raw one even for 30-bit codes: nghttp2 then Huffman-encodes the value.
 */
function diluted(text: string): string {
  return Array.from(text, (c) => c + 'aeiost0120').join('');
}

describe('HpackDecoder against nghttp2 (node:http2 client)', () => {
  const printable = bytesToLatin1(0x20, 0x7e);
  // NUL is left out: node joins headers with NUL internally and mangles a value holding one.
  const controls = bytesToLatin1(0x01, 0x1f) + '\x7f';
  const high = bytesToLatin1(0x80, 0xff);
  const longValues = Array.from({ length: 5 }, (_, i) => randomBytes(1000 + i, 4096, 1, 255).toString('latin1'));

  type Sent = Record<string, string | string[]>;
  const requests: Array<{ headers: Sent; sensitive?: string[] }> = [
    {
      headers: {
        'x-printable': printable,
        'x-printable-huffman': diluted(printable),
        'x-repeat': 'the same value on every request',
        cookie: 'session=0123456789abcdef0123456789abcdef; theme=dark; lang=en-US',
      },
    },
    {
      headers: {
        'x-high': high,
        'x-high-huffman': diluted(high),
        'x-repeat': 'the same value on every request',
        cookie: ['a=1', 'b=2', 'session=0123456789abcdef0123456789abcdef'],
      },
    },
    {
      headers: {
        'x-controls': controls,
        'x-controls-huffman': diluted(controls),
        'x-repeat': 'the same value on every request',
        'x-multi': ['one', 'two', 'three'],
      },
    },
    { headers: Object.fromEntries(longValues.map((value, i) => [`x-long-${i}`, value])) },
    {
      headers: {
        'x-repeat': 'the same value on every request',
        'x-printable': printable,
        'x-high-huffman': diluted(high),
        cookie: 'session=0123456789abcdef0123456789abcdef; theme=dark; lang=en-US',
      },
    },
    { headers: { authorization: 'Bearer abc.def.ghi', 'x-secret': 's3cr3t', 'x-repeat': 'the same value on every request' }, sensitive: ['x-secret'] },
    { headers: { 'x-long-0': longValues[0]!, 'x-repeat': 'the same value on every request' } },
  ];

  let server: RawServer;
  let decoded: Array<Array<[string, string]>>;
  let decoder: HpackDecoder;

  beforeAll(async () => {
    server = await startRawServer();
    const client = http2.connect(`http://127.0.0.1:${server.port}`);
    client.on('error', () => undefined);
    try {
      for (const { headers, sensitive } of requests) {
        // node sends the names listed under this symbol as "never indexed" (6.2.3).
        const stream = client.request({ ...headers, [http2.sensitiveHeaders]: sensitive ?? [] });
        stream.on('error', () => undefined);
      }
      await waitFor(() => server.blocks.length === requests.length, `${requests.length} header blocks`);
    } finally {
      client.destroy();
      await server.close();
    }
    decoder = new HpackDecoder();
    decoded = server.blocks.map(({ block }) => decoder.decode(block));
  });

  it('receives one block per request, in stream order, without framing problems', () => {
    expect(server.problems).toEqual([]);
    expect(server.blocks.map(({ streamId }) => streamId)).toEqual(requests.map((_, i) => 1 + 2 * i));
    // 5 × 4 KiB of incompressible octets exceed the 16 KiB default frame size.
    expect(server.continuationFrames).toBeGreaterThan(0);
  });

  it('decodes every request to what was sent, pseudo-headers included', () => {
    requests.forEach(({ headers }, i) => {
      const fields = decoded[i]!;
      const byName = new Map<string, string[]>();
      for (const [name, value] of fields) byName.set(name, [...(byName.get(name) ?? []), value]);
      expect(byName.get(':method')).toEqual(['GET']);
      expect(byName.get(':path')).toEqual(['/']);
      expect(byName.get(':scheme')).toEqual(['http']);
      expect(byName.get(':authority')).toEqual([`127.0.0.1:${server.port}`]);
      for (const [name, value] of Object.entries(headers)) {
        expect({ name, values: byName.get(name) }).toEqual({ name, values: Array.isArray(value) ? value : [value] });
      }
      const expectedNames = [':method', ':path', ':scheme', ':authority', ...Object.keys(headers)].sort();
      expect([...byName.keys()].sort()).toEqual(expectedNames);
    });
  });

  it("agrees byte for byte with nghttp2's Huffman encoding of every byte value but NUL", () => {
    // nghttp2 Huffman-encodes a value when that is shorter; the diluted values are, so their
    // encoding by huffmanEncode must appear verbatim in the blocks.
    const all = Buffer.concat(server.blocks.map(({ block }) => block));
    for (const value of [diluted(printable), diluted(high), diluted(controls)]) {
      const encoded = huffmanEncode(value);
      expect(encoded.length).toBeLessThan(value.length);
      expect(all.includes(encoded)).toBe(true);
    }
  });

  it("follows nghttp2's use of the dynamic table: repeated fields come back indexed", () => {
    const entries = decoder.dynamicTableEntries();
    expect(entries).toContainEqual(['x-repeat', 'the same value on every request']);
    expect(entries).toContainEqual(['x-printable', printable]);
    // Never-indexed fields stay out of the table.
    expect(entries.map(([name]) => name)).not.toContain('x-secret');
    // The fifth request only repeats earlier fields: all of them are table indexes.
    expect(server.blocks[4]!.block.length).toBeLessThan(16);
  });
});

describe('encodeHeaderBlock against nghttp2 (node:http2 client)', () => {
  it('produces response headers and trailers that a node:http2 client accepts', async () => {
    const responseHeaders: Array<[string, string]> = [
      [':status', '200'],
      ['content-type', 'application/grpc'],
      ['x-latin1', 'caf\u00e9 \u00ff'],
      ['x-custom', 'a value with spaces; and=signs'],
    ];
    const trailers: Array<[string, string]> = [
      ['grpc-status', '0'],
      ['grpc-message', 'all good'],
    ];
    const server = await startRawServer((socket, streamId) => {
      socket.write(frame(FRAME.HEADERS, FLAG.END_HEADERS, streamId, encodeHeaderBlock(responseHeaders)));
      socket.write(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, streamId, encodeHeaderBlock(trailers)));
    });
    const client = http2.connect(`http://127.0.0.1:${server.port}`);
    try {
      const received = await new Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders }>((resolve, reject) => {
        client.on('error', reject);
        const stream = client.request({ ':path': '/' });
        let headers: http2.IncomingHttpHeaders = {};
        stream.on('response', (h) => (headers = h));
        stream.on('trailers', (t) => resolve({ headers, trailers: t }));
        stream.on('error', reject);
        stream.resume();
      });
      expect(received.headers[':status']).toBe(200);
      expect(received.headers['content-type']).toBe('application/grpc');
      expect(received.headers['x-latin1']).toBe('caf\u00e9 \u00ff');
      expect(received.headers['x-custom']).toBe('a value with spaces; and=signs');
      expect(received.trailers['grpc-status']).toBe('0');
      expect(received.trailers['grpc-message']).toBe('all good');
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
