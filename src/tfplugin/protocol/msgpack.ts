/**
 * A minimal MessagePack reader and writer, just what Terraform's value wire format uses
 * (`docs/plugin-protocol/object-wire-format.md`): nil, booleans, integers, floats, strings,
 * binaries, arrays, maps and extensions.
 *
 * Extensions carry unknown values. Terraform sends plain unknowns as extension type 0 and
 * refined unknowns (for example "a string starting with …") as type 12; this reader turns
 * **every** extension into {@link UNKNOWN}, so no extension can be mistaken for data. The writer
 * emits unknown only as fixext1 type 0 (`d4 00 00`), the form every Terraform version reads.
 */
import { UNKNOWN, type Unknown } from './unknown';

/** A decoded msgpack item before types are applied: maps become plain objects with string keys. */
export type MsgpackItem = null | Unknown | boolean | number | string | Buffer | MsgpackItem[] | { [key: string]: MsgpackItem };

/** Raised for malformed msgpack input. */
export class MsgpackError extends Error {
  override readonly name = 'MsgpackError';
}

/** Decodes one msgpack item occupying all of `bytes`. */
export function readMsgpack(bytes: Uint8Array): MsgpackItem {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = { pos: 0 };
  const item = readItem(buf, reader);
  if (reader.pos !== buf.length) throw new MsgpackError(`${buf.length - reader.pos} trailing bytes after the value`);
  return item;
}

function need(buf: Buffer, reader: { pos: number }, size: number): number {
  const at = reader.pos;
  if (at + size > buf.length) throw new MsgpackError('truncated msgpack value');
  reader.pos += size;
  return at;
}

function readItem(buf: Buffer, reader: { pos: number }): MsgpackItem {
  const byte = buf[need(buf, reader, 1)]!;
  if (byte <= 0x7f) return byte;
  if (byte >= 0xe0) return byte - 0x100;
  if (byte >= 0xa0 && byte <= 0xbf) return readString(buf, reader, byte & 0x1f);
  if (byte >= 0x90 && byte <= 0x9f) return readArray(buf, reader, byte & 0x0f);
  if (byte >= 0x80 && byte <= 0x8f) return readMap(buf, reader, byte & 0x0f);
  switch (byte) {
    case 0xc0: return null;
    case 0xc2: return false;
    case 0xc3: return true;
    case 0xc4: return readBinary(buf, reader, buf.readUInt8(need(buf, reader, 1)));
    case 0xc5: return readBinary(buf, reader, buf.readUInt16BE(need(buf, reader, 2)));
    case 0xc6: return readBinary(buf, reader, buf.readUInt32BE(need(buf, reader, 4)));
    case 0xc7: return skipExtension(buf, reader, buf.readUInt8(need(buf, reader, 1)));
    case 0xc8: return skipExtension(buf, reader, buf.readUInt16BE(need(buf, reader, 2)));
    case 0xc9: return skipExtension(buf, reader, buf.readUInt32BE(need(buf, reader, 4)));
    case 0xca: return buf.readFloatBE(need(buf, reader, 4));
    case 0xcb: return buf.readDoubleBE(need(buf, reader, 8));
    case 0xcc: return buf.readUInt8(need(buf, reader, 1));
    case 0xcd: return buf.readUInt16BE(need(buf, reader, 2));
    case 0xce: return buf.readUInt32BE(need(buf, reader, 4));
    case 0xcf: return Number(buf.readBigUInt64BE(need(buf, reader, 8)));
    case 0xd0: return buf.readInt8(need(buf, reader, 1));
    case 0xd1: return buf.readInt16BE(need(buf, reader, 2));
    case 0xd2: return buf.readInt32BE(need(buf, reader, 4));
    case 0xd3: return Number(buf.readBigInt64BE(need(buf, reader, 8)));
    case 0xd4: return skipExtension(buf, reader, 1);
    case 0xd5: return skipExtension(buf, reader, 2);
    case 0xd6: return skipExtension(buf, reader, 4);
    case 0xd7: return skipExtension(buf, reader, 8);
    case 0xd8: return skipExtension(buf, reader, 16);
    case 0xd9: return readString(buf, reader, buf.readUInt8(need(buf, reader, 1)));
    case 0xda: return readString(buf, reader, buf.readUInt16BE(need(buf, reader, 2)));
    case 0xdb: return readString(buf, reader, buf.readUInt32BE(need(buf, reader, 4)));
    case 0xdc: return readArray(buf, reader, buf.readUInt16BE(need(buf, reader, 2)));
    case 0xdd: return readArray(buf, reader, buf.readUInt32BE(need(buf, reader, 4)));
    case 0xde: return readMap(buf, reader, buf.readUInt16BE(need(buf, reader, 2)));
    case 0xdf: return readMap(buf, reader, buf.readUInt32BE(need(buf, reader, 4)));
    default: throw new MsgpackError(`invalid msgpack byte 0x${byte.toString(16)}`);
  }
}

/** Any extension, whatever its type and payload, is an unknown value. */
function skipExtension(buf: Buffer, reader: { pos: number }, size: number): Unknown {
  need(buf, reader, 1 + size); // type byte, then payload
  return UNKNOWN;
}

function readString(buf: Buffer, reader: { pos: number }, size: number): string {
  const at = need(buf, reader, size);
  return buf.toString('utf8', at, at + size);
}

function readBinary(buf: Buffer, reader: { pos: number }, size: number): Buffer {
  const at = need(buf, reader, size);
  return Buffer.from(buf.subarray(at, at + size));
}

function readArray(buf: Buffer, reader: { pos: number }, count: number): MsgpackItem[] {
  const items: MsgpackItem[] = [];
  for (let i = 0; i < count; i++) items.push(readItem(buf, reader));
  return items;
}

function readMap(buf: Buffer, reader: { pos: number }, count: number): { [key: string]: MsgpackItem } {
  const entries: [string, MsgpackItem][] = [];
  for (let i = 0; i < count; i++) {
    const key = readItem(buf, reader);
    if (typeof key !== 'string') throw new MsgpackError('map keys must be strings');
    entries.push([key, readItem(buf, reader)]);
  }
  // fromEntries defines own properties, so a key like "__proto__" stays data.
  return Object.fromEntries(entries);
}

/** Appends msgpack encodings to a list of chunks. */
export class MsgpackWriter {
  private readonly chunks: Buffer[] = [];

  /** The bytes written so far. */
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** Writes nil (Terraform's null). */
  nil(): void {
    this.chunks.push(Buffer.from([0xc0]));
  }

  /** The unknown value: fixext1, extension type 0, one zero byte. */
  unknown(): void {
    this.chunks.push(Buffer.from([0xd4, 0x00, 0x00]));
  }

  /** Writes a boolean. */
  bool(value: boolean): void {
    this.chunks.push(Buffer.from([value ? 0xc3 : 0xc2]));
  }

  /** Integers that fit in 64 bits exactly as ints, everything else as float64. */
  number(value: number): void {
    if (!Number.isFinite(value)) throw new MsgpackError(`cannot encode the number ${value}`);
    if (Number.isSafeInteger(value)) {
      if (value >= 0 && value <= 0x7f) return void this.chunks.push(Buffer.from([value]));
      if (value < 0 && value >= -32) return void this.chunks.push(Buffer.from([0x100 + value]));
      const out = Buffer.alloc(9);
      if (value >= 0) {
        out[0] = 0xcf;
        out.writeBigUInt64BE(BigInt(value), 1);
      } else {
        out[0] = 0xd3;
        out.writeBigInt64BE(BigInt(value), 1);
      }
      return void this.chunks.push(out);
    }
    const out = Buffer.alloc(9);
    out[0] = 0xcb;
    out.writeDoubleBE(value, 1);
    this.chunks.push(out);
  }

  /** Writes a UTF-8 string. */
  string(value: string): void {
    const body = Buffer.from(value, 'utf8');
    const size = body.length;
    if (size <= 31) this.chunks.push(Buffer.from([0xa0 | size]));
    else if (size <= 0xff) this.chunks.push(Buffer.from([0xd9, size]));
    else if (size <= 0xffff) this.chunks.push(header(0xda, 2, size));
    else this.chunks.push(header(0xdb, 4, size));
    this.chunks.push(body);
  }

  /** Starts an array of `count` items; write the items next. */
  arrayHeader(count: number): void {
    if (count <= 15) this.chunks.push(Buffer.from([0x90 | count]));
    else if (count <= 0xffff) this.chunks.push(header(0xdc, 2, count));
    else this.chunks.push(header(0xdd, 4, count));
  }

  /** Starts a map of `count` entries; write key, value pairs next. */
  mapHeader(count: number): void {
    if (count <= 15) this.chunks.push(Buffer.from([0x80 | count]));
    else if (count <= 0xffff) this.chunks.push(header(0xde, 2, count));
    else this.chunks.push(header(0xdf, 4, count));
  }
}

function header(code: number, size: 2 | 4, value: number): Buffer {
  const out = Buffer.alloc(1 + size);
  out[0] = code;
  if (size === 2) out.writeUInt16BE(value, 1);
  else out.writeUInt32BE(value, 1);
  return out;
}
