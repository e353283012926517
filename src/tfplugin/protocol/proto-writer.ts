/**
 * The byte buffer that ProtoCodec writes messages into: one growable buffer per message, varints
 * written in place, and the length of a nested message written in front of it once it is known.
 *
 * Why: writing each tag, varint and string as a Buffer of its own and concatenating them per
 * nested message made encoding the provider's schema a visible part of each start (every one of
 * Terraform's three provider starts per command asks for it) and of each RPC (bench/README.md).
 */

/** How many bytes the varint of a non-negative `value` takes. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

/** A growable buffer with the writes protobuf's wire format needs. */
export class ProtoWriter {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  /** Makes room for `extra` more bytes. */
  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /**
   * Writes a varint: a non-negative integer (exact up to 2^53), or a negative one as 64-bit two's
   * complement (10 bytes), as protobuf encodes negative int32 and int64 values.
   */
  varint(value: number): void {
    if (value < 0) {
      let big = BigInt.asUintN(64, BigInt(Math.trunc(value)));
      this.ensure(10);
      while (big >= 0x80n) {
        this.buf[this.pos++] = Number(big & 0x7fn) | 0x80;
        big >>= 7n;
      }
      this.buf[this.pos++] = Number(big);
      return;
    }
    const rest = Math.trunc(value);
    this.ensure(varintSize(rest));
    this.pos = this.varintAt(this.pos, rest);
  }

  /** Writes the varint of a non-negative `value` at `at` (room is there); returns where it ends. */
  private varintAt(at: number, value: number): number {
    // Arithmetic, not bit operators: those would cut the value to 32 bits.
    while (value >= 0x80) {
      this.buf[at++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[at++] = value;
    return at;
  }

  /** Writes a field's key: its number and wire type. */
  tag(id: number, wire: number): void {
    this.varint(id * 8 + wire);
  }

  /** Writes a length-delimited run of bytes (length, then the bytes). */
  bytes(data: Uint8Array): void {
    this.varint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  /** Writes a length-delimited string, UTF-8 encoded. */
  string(text: string): void {
    const length = Buffer.byteLength(text, 'utf8');
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(text, this.pos, length, 'utf8');
  }

  /** Writes `size` bytes (4 or 8) through `write`, little-endian as protobuf's fixed types are. */
  fixed(size: 4 | 8, write: (buf: Buffer, offset: number) => void): void {
    this.ensure(size);
    write(this.buf, this.pos);
    this.pos += size;
  }

  /**
   * Starts a length-delimited field whose length is not known yet (a nested message): returns the
   * mark to hand {@link endDelimited} once its contents are written.
   */
  beginDelimited(): number {
    this.ensure(1);
    // One byte is kept for the length, enough below 128 bytes; a longer one moves the contents.
    return this.pos++;
  }

  /** Writes the length of the field started at `mark` in front of its contents. */
  endDelimited(mark: number): void {
    const length = this.pos - mark - 1;
    const size = varintSize(length);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(mark + size, mark + 1, this.pos);
      this.pos += size - 1;
    }
    this.varintAt(mark, length);
  }

  /** The bytes written (a view of the writer's buffer: the writer is not used afterwards). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
