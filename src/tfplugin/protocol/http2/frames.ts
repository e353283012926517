/**
 * HTTP/2 framing (RFC 9113 section 4 and 6): the frame types, flags, settings and error codes the
 * provider's server uses, and the writing of frames. Reading is in {@link ./connection}, which
 * parses frames as they arrive.
 */

/** Frame types (RFC 9113 section 6). */
export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

/** Frame flags (each meaningful only for some types). */
export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

/** Setting identifiers (RFC 9113 section 6.5.2). */
export const Setting = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

/** Error codes of RST_STREAM and GOAWAY (RFC 9113 section 7). */
export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  /** The peer is generating excessive load (a header block or message over the limits). */
  ENHANCE_YOUR_CALM: 0xb,
} as const;

/** What every client sends first (RFC 9113 section 3.4). */
export const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Size of a frame header. */
export const FRAME_HEADER_SIZE = 9;

/** The initial flow-control window of every stream and of the connection (RFC 9113 section 6.9.2). */
export const DEFAULT_WINDOW_SIZE = 65_535;

/** The largest frame payload either side may send until told otherwise (RFC 9113 section 4.2). */
export const DEFAULT_MAX_FRAME_SIZE = 16_384;

/** The largest flow-control window (2^31 - 1). */
export const MAX_WINDOW_SIZE = 0x7fff_ffff;

/** One frame: its 9-byte header followed by `payload`. */
export function frame(type: number, flags: number, streamId: number, payload: Uint8Array = EMPTY): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_SIZE + payload.length);
  out.writeUIntBE(payload.length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(streamId & MAX_WINDOW_SIZE, 5);
  out.set(payload, FRAME_HEADER_SIZE);
  return out;
}

/** A SETTINGS frame holding `settings` (identifier, value pairs). */
export function settingsFrame(settings: ReadonlyArray<readonly [number, number]>): Buffer {
  const payload = Buffer.allocUnsafe(6 * settings.length);
  settings.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(FrameType.SETTINGS, 0, 0, payload);
}

/** A WINDOW_UPDATE frame granting `increment` more bytes on `streamId` (0: the connection). */
export function windowUpdateFrame(streamId: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment, 0);
  return frame(FrameType.WINDOW_UPDATE, 0, streamId, payload);
}

/** An RST_STREAM frame. */
export function rstStreamFrame(streamId: number, code: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(code, 0);
  return frame(FrameType.RST_STREAM, 0, streamId, payload);
}

/** A GOAWAY frame: the last stream this side processed, and why it goes. */
export function goawayFrame(lastStreamId: number, code: number): Buffer {
  const payload = Buffer.allocUnsafe(8);
  payload.writeUInt32BE(lastStreamId, 0);
  payload.writeUInt32BE(code, 4);
  return frame(FrameType.GOAWAY, 0, 0, payload);
}

/**
 * A header block as HEADERS followed by as many CONTINUATION frames as `maxFrameSize` needs, in one
 * buffer (nothing may come between them on the connection).
 */
export function headerFrames(streamId: number, block: Buffer, endStream: boolean, maxFrameSize: number): Buffer {
  const first = block.subarray(0, maxFrameSize);
  const frames: Buffer[] = [];
  let rest = block.subarray(first.length);
  frames.push(frame(FrameType.HEADERS, (endStream ? Flag.END_STREAM : 0) | (rest.length === 0 ? Flag.END_HEADERS : 0), streamId, first));
  while (rest.length > 0) {
    const piece = rest.subarray(0, maxFrameSize);
    rest = rest.subarray(piece.length);
    frames.push(frame(FrameType.CONTINUATION, rest.length === 0 ? Flag.END_HEADERS : 0, streamId, piece));
  }
  return frames.length === 1 ? frames[0]! : Buffer.concat(frames);
}

const EMPTY = new Uint8Array(0);
