/**
 * A small protobuf (proto3) codec driven by a protobufjs-style JSON descriptor.
 *
 * Why not protobufjs at run time: Terraform starts the provider three times per command, so every
 * millisecond of start-up counts three times; the protocol's messages only need varints,
 * length-delimited fields, maps and enums, which fit in this file and cost nothing to load. The
 * descriptor itself is produced from the `.proto` files at build time (see `descriptor.ts`).
 *
 * Decoded messages are plain objects keyed by the proto field names: scalars carry their proto3
 * defaults when absent, repeated fields are arrays, maps are objects, enums are their value names,
 * bytes are Buffers, 64-bit integers are numbers, absent message fields are `undefined`.
 */

import { ProtoWriter } from './proto-writer';

/** One namespace or message of a protobufjs JSON descriptor (`Root#toJSON()`). */
export interface DescriptorNode {
  readonly nested?: { readonly [name: string]: DescriptorNode };
  readonly fields?: {
    readonly [name: string]: {
      readonly type: string;
      readonly id: number;
      readonly rule?: string;
      readonly keyType?: string;
      readonly options?: { readonly [option: string]: unknown };
    };
  };
  readonly values?: { readonly [name: string]: number };
  readonly methods?: {
    readonly [name: string]: {
      readonly requestType: string;
      readonly responseType: string;
      readonly requestStream?: boolean;
      readonly responseStream?: boolean;
    };
  };
  readonly oneofs?: unknown;
}

/** A decoded or to-be-encoded message. */
export type ProtoMessage = { [field: string]: unknown };

/** Raised for malformed protobuf input or a message that does not fit its type. */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

type ScalarKind =
  | 'double' | 'float' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'sint32' | 'sint64'
  | 'fixed32' | 'fixed64' | 'sfixed32' | 'sfixed64' | 'bool' | 'string' | 'bytes';

interface FieldInfo {
  readonly name: string;
  readonly id: number;
  readonly kind: ScalarKind | 'message' | 'enum';
  /** Full name of the message or enum type. */
  readonly typeName?: string;
  readonly repeated: boolean;
  /** Key kind for map fields. */
  readonly mapKey?: ScalarKind;
  /** proto3 `optional`: presence is tracked, defaults are encoded. */
  readonly explicitPresence: boolean;
  /** For a map field: its entries' key (field 1) and value (field 2), as fields of their own. */
  readonly entry?: { readonly key: FieldInfo; readonly value: FieldInfo };
}

interface MessageInfo {
  readonly fullName: string;
  readonly fields: readonly FieldInfo[];
  readonly byId: Map<number, FieldInfo>;
}

interface EnumInfo {
  readonly byName: Map<string, number>;
  readonly byNumber: Map<number, string>;
}

const SCALARS = new Set<string>([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;
const WIRE_FIXED32 = 5;

function wireTypeOf(kind: FieldInfo['kind']): number {
  switch (kind) {
    case 'double': case 'fixed64': case 'sfixed64': return WIRE_FIXED64;
    case 'float': case 'fixed32': case 'sfixed32': return WIRE_FIXED32;
    case 'string': case 'bytes': case 'message': return WIRE_LENGTH;
    default: return WIRE_VARINT;
  }
}

/** Encodes and decodes messages of one descriptor; type tables are built on first use. */
export class ProtoCodec {
  private readonly nodes = new Map<string, DescriptorNode>();
  private readonly messages = new Map<string, MessageInfo>();
  private readonly enums = new Map<string, EnumInfo>();

  /** @param root the descriptor, as `protobufjs.Root#toJSON()` prints it. */
  constructor(root: DescriptorNode) {
    this.index(root, '');
  }

  /** The method table of a service, e.g. `tfplugin6.Provider`. */
  service(fullName: string): NonNullable<DescriptorNode['methods']> {
    const node = this.nodes.get(fullName);
    if (!node?.methods) throw new ProtobufError(`no service ${fullName} in the descriptor`);
    return node.methods;
  }

  /** Resolves a type name as written inside `scope` (a full name) to its full name. */
  resolve(name: string, scope: string): string {
    if (name.startsWith('.')) return name.slice(1);
    let prefix = scope;
    for (;;) {
      const candidate = prefix ? `${prefix}.${name}` : name;
      if (this.nodes.has(candidate)) return candidate;
      if (!prefix) throw new ProtobufError(`cannot resolve type ${name} from ${scope}`);
      const dot = prefix.lastIndexOf('.');
      prefix = dot < 0 ? '' : prefix.slice(0, dot);
    }
  }

  /** Encodes `message` as the message type `fullName`. */
  encode(fullName: string, message: ProtoMessage): Buffer {
    const out = new ProtoWriter();
    this.encodeInto(this.message(fullName), message, out);
    return out.finish();
  }

  /** Decodes `bytes` as the message type `fullName`. */
  decode(fullName: string, bytes: Uint8Array): ProtoMessage {
    return this.decodeRange(this.message(fullName), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.byteLength);
  }

  private index(node: DescriptorNode, fullName: string): void {
    if (fullName) this.nodes.set(fullName, node);
    for (const [name, child] of Object.entries(node.nested ?? {})) {
      this.index(child, fullName ? `${fullName}.${name}` : name);
    }
  }

  private message(fullName: string): MessageInfo {
    const cached = this.messages.get(fullName);
    if (cached) return cached;
    const node = this.nodes.get(fullName);
    // An empty message has no `fields` in protobufjs JSON; it still must exist.
    if (!node || node.values || node.methods) throw new ProtobufError(`no message ${fullName} in the descriptor`);
    // Members of a oneof (and proto3 `optional` fields, which are synthetic oneofs) track
    // presence: a set member with a default value (index 0, "") must still be written.
    const inOneof = new Set<string>();
    for (const oneof of Object.values((node.oneofs ?? {}) as Record<string, { oneof?: string[] }>)) {
      for (const member of oneof.oneof ?? []) inOneof.add(member);
    }
    const fields: FieldInfo[] = [];
    for (const [name, field] of Object.entries(node.fields ?? {})) {
      const isScalar = SCALARS.has(field.type);
      const typeName = isScalar ? undefined : this.resolve(field.type, fullName);
      const kind = isScalar ? (field.type as ScalarKind) : this.nodes.get(typeName!)?.values ? 'enum' : 'message';
      const fieldInfo: FieldInfo = {
        name,
        id: field.id,
        kind,
        typeName,
        repeated: field.rule === 'repeated',
        mapKey: field.keyType as ScalarKind | undefined,
        explicitPresence: inOneof.has(name) || field.options?.proto3_optional === true,
      };
      fields.push(fieldInfo.mapKey ? { ...fieldInfo, entry: mapEntryFields(fieldInfo, fieldInfo.mapKey) } : fieldInfo);
    }
    const info: MessageInfo = { fullName, fields, byId: new Map(fields.map((f) => [f.id, f])) };
    this.messages.set(fullName, info);
    return info;
  }

  private enumInfo(fullName: string): EnumInfo {
    let info = this.enums.get(fullName);
    if (!info) {
      const values = this.nodes.get(fullName)?.values ?? {};
      info = {
        byName: new Map(Object.entries(values)),
        byNumber: new Map(Object.entries(values).map(([k, v]) => [v, k])),
      };
      this.enums.set(fullName, info);
    }
    return info;
  }

  // ------------------------------------------------------------------------------------------
  // Encoding

  private encodeInto(info: MessageInfo, message: ProtoMessage, out: ProtoWriter): void {
    for (const field of info.fields) {
      const value = message[field.name];
      if (value === undefined || value === null) continue;
      if (field.mapKey) {
        const { key: keyField, value: valueField } = field.entry!;
        for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
          if (entry === undefined || entry === null) continue;
          out.tag(field.id, WIRE_LENGTH);
          const mark = out.beginDelimited();
          this.encodeValue(keyField, key, out, true);
          this.encodeValue(valueField, entry, out, true);
          out.endDelimited(mark);
        }
      } else if (field.repeated) {
        if (!Array.isArray(value)) throw new ProtobufError(`${info.fullName}.${field.name} must be an array`);
        for (const item of value) this.encodeValue(field, item, out, true);
      } else {
        this.encodeValue(field, value, out, field.explicitPresence);
      }
    }
  }

  /** Writes one field value; `always` also writes proto3 default values. */
  private encodeValue(field: FieldInfo, value: unknown, out: ProtoWriter, always: boolean): void {
    switch (field.kind) {
      case 'message': {
        out.tag(field.id, WIRE_LENGTH);
        const mark = out.beginDelimited();
        this.encodeInto(this.message(field.typeName!), value as ProtoMessage, out);
        out.endDelimited(mark);
        return;
      }
      case 'string': {
        const text = String(value);
        if (!always && text === '') return;
        out.tag(field.id, WIRE_LENGTH);
        out.string(text);
        return;
      }
      case 'bytes': {
        const body = typeof value === 'string' ? Buffer.from(value, 'utf8') : (value as Uint8Array);
        if (!always && body.length === 0) return;
        out.tag(field.id, WIRE_LENGTH);
        out.bytes(body);
        return;
      }
      case 'bool':
        if (!always && !value) return;
        out.tag(field.id, WIRE_VARINT);
        out.varint(value ? 1 : 0);
        return;
      case 'enum': {
        const number = typeof value === 'number' ? value : this.enumInfo(field.typeName!).byName.get(String(value));
        if (number === undefined) throw new ProtobufError(`${String(value)} is not a value of ${field.typeName}`);
        if (!always && number === 0) return;
        out.tag(field.id, WIRE_VARINT);
        out.varint(number);
        return;
      }
      case 'double': case 'float': case 'fixed32': case 'fixed64': case 'sfixed32': case 'sfixed64': {
        const number = Number(value);
        if (!always && number === 0) return;
        const wire = wireTypeOf(field.kind);
        out.tag(field.id, wire);
        const kind = field.kind;
        out.fixed(wire === WIRE_FIXED64 ? 8 : 4, (buf, offset) => {
          if (kind === 'double') buf.writeDoubleLE(number, offset);
          else if (kind === 'float') buf.writeFloatLE(number, offset);
          else if (kind === 'fixed32') buf.writeUInt32LE(number, offset);
          else if (kind === 'sfixed32') buf.writeInt32LE(number, offset);
          else buf.writeBigInt64LE(BigInt(Math.trunc(number)), offset);
        });
        return;
      }
      default: {
        const number = Number(value);
        if (!Number.isFinite(number)) throw new ProtobufError(`${field.name} must be a number`);
        if (!always && number === 0) return;
        out.tag(field.id, WIRE_VARINT);
        out.varint(field.kind === 'sint32' || field.kind === 'sint64' ? (number >= 0 ? number * 2 : -number * 2 - 1) : number);
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Decoding

  private decodeRange(info: MessageInfo, buf: Buffer, start: number, end: number): ProtoMessage {
    const message: ProtoMessage = {};
    for (const field of info.fields) {
      if (field.mapKey) message[field.name] = {};
      else if (field.repeated) message[field.name] = [];
      else if (!field.explicitPresence && field.kind !== 'message') message[field.name] = this.defaultOf(field);
    }
    const reader = { pos: start };
    while (reader.pos < end) {
      const key = readVarint(buf, reader, end);
      const id = Math.floor(key / 8);
      const wire = key % 8;
      const field = info.byId.get(id);
      if (!field) {
        skipField(buf, reader, wire, end);
        continue;
      }
      if (field.mapKey) {
        const length = readVarint(buf, reader, end);
        const entryEnd = reader.pos + length;
        if (entryEnd > end) throw new ProtobufError('truncated map entry');
        const { key: keyField, value: valueField } = field.entry!;
        let entryKey: unknown = this.defaultOf(keyField);
        let entryValue: unknown = valueField.kind === 'message' ? {} : this.defaultOf(valueField);
        while (reader.pos < entryEnd) {
          const entryTag = readVarint(buf, reader, entryEnd);
          const entryWire = entryTag % 8;
          const entryId = Math.floor(entryTag / 8);
          if (entryId === 1) entryKey = this.decodeValue(keyField, buf, reader, entryWire, entryEnd);
          else if (entryId === 2) entryValue = this.decodeValue(valueField, buf, reader, entryWire, entryEnd);
          else skipField(buf, reader, entryWire, entryEnd);
        }
        (message[field.name] as Record<string, unknown>)[String(entryKey)] = entryValue;
        continue;
      }
      if (field.repeated && wire === WIRE_LENGTH && field.kind !== 'message' && field.kind !== 'string' && field.kind !== 'bytes') {
        // Packed repeated scalars.
        const length = readVarint(buf, reader, end);
        const packedEnd = reader.pos + length;
        while (reader.pos < packedEnd) {
          (message[field.name] as unknown[]).push(this.decodeValue(field, buf, reader, wireTypeOf(field.kind), packedEnd));
        }
        continue;
      }
      const value = this.decodeValue(field, buf, reader, wire, end);
      if (field.repeated) (message[field.name] as unknown[]).push(value);
      else message[field.name] = value;
    }
    if (reader.pos !== end) throw new ProtobufError('truncated message');
    return message;
  }

  private decodeValue(field: FieldInfo, buf: Buffer, reader: { pos: number }, wire: number, end: number): unknown {
    if (wire !== wireTypeOf(field.kind)) {
      throw new ProtobufError(`field ${field.name} has wire type ${wire}, expected ${wireTypeOf(field.kind)}`);
    }
    switch (field.kind) {
      case 'message': case 'string': case 'bytes': {
        const length = readVarint(buf, reader, end);
        const from = reader.pos;
        const to = from + length;
        if (to > end) throw new ProtobufError(`truncated field ${field.name}`);
        reader.pos = to;
        if (field.kind === 'message') return this.decodeRange(this.message(field.typeName!), buf, from, to);
        if (field.kind === 'string') return buf.toString('utf8', from, to);
        return Buffer.from(buf.subarray(from, to));
      }
      case 'bool':
        return readVarint(buf, reader, end) !== 0;
      case 'enum': {
        const number = toSigned32(readSignedVarint(buf, reader, end));
        return this.enumInfo(field.typeName!).byNumber.get(number) ?? number;
      }
      case 'double': case 'float': case 'fixed32': case 'fixed64': case 'sfixed32': case 'sfixed64': {
        const size = wireTypeOf(field.kind) === WIRE_FIXED64 ? 8 : 4;
        if (reader.pos + size > end) throw new ProtobufError(`truncated field ${field.name}`);
        const at = reader.pos;
        reader.pos += size;
        if (field.kind === 'double') return buf.readDoubleLE(at);
        if (field.kind === 'float') return buf.readFloatLE(at);
        if (field.kind === 'fixed32') return buf.readUInt32LE(at);
        if (field.kind === 'sfixed32') return buf.readInt32LE(at);
        if (field.kind === 'fixed64') return Number(buf.readBigUInt64LE(at));
        return Number(buf.readBigInt64LE(at));
      }
      case 'int32':
      case 'int64':
        return readSignedVarint(buf, reader, end);
      case 'sint32': case 'sint64': {
        const raw = readVarint(buf, reader, end);
        return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
      }
      default:
        return readVarint(buf, reader, end);
    }
  }

  private defaultOf(field: Pick<FieldInfo, 'kind' | 'typeName'>): unknown {
    switch (field.kind) {
      case 'string': return '';
      case 'bytes': return Buffer.alloc(0);
      case 'bool': return false;
      case 'enum': return this.enumInfo(field.typeName!).byNumber.get(0) ?? 0;
      case 'message': return undefined;
      default: return 0;
    }
  }
}

/** The key and value fields of the entries of the map field `field` (messages with fields 1 and 2). */
function mapEntryFields(field: FieldInfo, keyKind: ScalarKind): { key: FieldInfo; value: FieldInfo } {
  return {
    key: { ...field, id: 1, kind: keyKind, typeName: undefined, repeated: false, mapKey: undefined },
    value: { ...field, id: 2, repeated: false, mapKey: undefined },
  };
}

/** Reads a varint as an unsigned number (exact up to 2^53). */
function readVarint(buf: Buffer, reader: { pos: number }, end: number): number {
  let result = 0;
  let multiplier = 1;
  for (let i = 0; i < 10; i++) {
    if (reader.pos >= end) throw new ProtobufError('truncated varint');
    const byte = buf[reader.pos++]!;
    result += (byte & 0x7f) * multiplier;
    if (byte < 0x80) return result;
    multiplier *= 0x80;
  }
  throw new ProtobufError('varint longer than 10 bytes');
}

/**
 * Reads an int32/int64 varint. Negative values take 10 bytes (64-bit two's complement), more
 * than a double holds exactly, so long varints go through BigInt.
 */
function readSignedVarint(buf: Buffer, reader: { pos: number }, end: number): number {
  let length = 0;
  while (reader.pos + length < end && buf[reader.pos + length]! >= 0x80) length++;
  if (length < 7) return readVarint(buf, reader, end);
  let result = 0n;
  let shift = 0n;
  for (let i = 0; i < 10; i++) {
    if (reader.pos >= end) throw new ProtobufError('truncated varint');
    const byte = buf[reader.pos++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return Number(BigInt.asIntN(64, result));
    shift += 7n;
  }
  throw new ProtobufError('varint longer than 10 bytes');
}

function toSigned32(value: number): number {
  return value > 0x7fffffff && value < 2 ** 32 ? value - 2 ** 32 : value;
}

function skipField(buf: Buffer, reader: { pos: number }, wire: number, end: number): void {
  switch (wire) {
    case WIRE_VARINT: readVarint(buf, reader, end); return;
    case WIRE_FIXED64: reader.pos += 8; break;
    case WIRE_LENGTH: { const length = readVarint(buf, reader, end); reader.pos += length; break; }
    case WIRE_FIXED32: reader.pos += 4; break;
    default: throw new ProtobufError(`unsupported wire type ${wire}`);
  }
  if (reader.pos > end) throw new ProtobufError('truncated field');
}
