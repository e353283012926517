/**
 * Property-based differential test of the hand-written protobuf codec against protobufjs, over
 * every message type of the protocol descriptor: seeded random messages are encoded by one and
 * decoded by the other, both ways, and must come out equal to the message generated.
 */
import { isDeepStrictEqual } from 'node:util';
import * as protobuf from 'protobufjs';
import type { DescriptorNode } from '../../../src/tfplugin/protocol/protobuf';
import { PROTOCOL_DESCRIPTOR } from '../../../src/tfplugin/protocol/descriptor';
import { ProtoCodec, type ProtoMessage } from '../../../src/tfplugin/protocol/protobuf';
import { seededRandom } from '../../helpers/seeded-random';

const CASES_PER_TYPE = 300;
/** Change it to explore other messages; a failure names the seed of its case. */
const BASE_SEED = 0x5eed;
/** Nesting depth after which messages are left out (the schema types are recursive). */
const MAX_DEPTH = 4;

function seedOf(text: string): number {
  let hash = BASE_SEED;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}

class Generator {
  constructor(private readonly next: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** An integer of the kind, biased towards the edges where varint encodings change length. */
  integer(min: number, max: number): number {
    if (this.chance(0.3)) return this.pick([min, max, 0, 1, -1, 127, 128, 16383, 16384, -128, 2 ** 31 - 1, -(2 ** 31)].filter((n) => n >= min && n <= max));
    if (this.chance(0.5)) return this.int(Math.max(min, -1000), Math.min(max, 1000));
    return this.int(min, max);
  }

  string(): string {
    const alphabet = ['a', 'z', '_', ' ', '0', 'é', 'ß', '€', '中', '😀', '\u0000', '\n', '%'];
    let text = '';
    for (let i = this.int(0, 8); i > 0; i--) text += this.pick(alphabet);
    return text;
  }

  bytes(): Buffer {
    return Buffer.from(Array.from({ length: this.int(0, 12) }, () => this.int(0, 255)));
  }
}

/** Random values of a scalar type, in the form both codecs accept (64-bit within 2^53). */
function scalar(gen: Generator, type: string): unknown {
  switch (type) {
    case 'string': return gen.string();
    case 'bytes': return gen.bytes();
    case 'bool': return gen.chance(0.5);
    case 'double': return gen.chance(0.2) ? 0 : (gen.chance(0.5) ? -1 : 1) * gen.int(0, 1e9) / gen.pick([1, 3, 1024]);
    case 'float': return gen.chance(0.2) ? 0 : Math.fround((gen.chance(0.5) ? -1 : 1) * gen.int(0, 1e6) / gen.pick([1, 3, 1024]));
    case 'int32': case 'sint32': case 'sfixed32': return gen.integer(-(2 ** 31), 2 ** 31 - 1);
    case 'uint32': case 'fixed32': return gen.integer(0, 2 ** 32 - 1);
    case 'int64': case 'sint64': case 'sfixed64': return gen.integer(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case 'uint64': case 'fixed64': return gen.integer(0, Number.MAX_SAFE_INTEGER);
    default: throw new Error(`no generator for ${type}`);
  }
}

function scalarDefault(type: string): unknown {
  if (type === 'string') return '';
  if (type === 'bytes') return Buffer.alloc(0);
  if (type === 'bool') return false;
  return 0;
}

/** Whether a field tracks presence (a oneof member or a proto3 `optional` field). */
function hasPresence(field: protobuf.Field): boolean {
  return field.partOf !== null && field.partOf !== undefined;
}

/** A random message of `type`, in the codec's input form (enums by name, bytes as Buffers). */
function message(gen: Generator, type: protobuf.Type, depth: number): ProtoMessage {
  const result: ProtoMessage = {};
  // At most one member of each oneof (proto3 optional fields are one-member oneofs).
  const chosen = new Set<string>();
  for (const oneof of type.oneofsArray) {
    if (gen.chance(0.6)) chosen.add(gen.pick(oneof.fieldsArray).name);
  }
  for (const field of type.fieldsArray) {
    field.resolve();
    if (hasPresence(field) && !chosen.has(field.name)) continue;
    const one = (): unknown => value(gen, field, depth);
    if (field.map) {
      const map: Record<string, unknown> = {};
      if (depth < MAX_DEPTH) for (let i = gen.int(0, 3); i > 0; i--) map[gen.string()] = one();
      result[field.name] = map;
    } else if (field.repeated) {
      result[field.name] = depth < MAX_DEPTH || !(field.resolvedType instanceof protobuf.Type) ? Array.from({ length: gen.int(0, 3) }, one) : [];
    } else if (field.resolvedType instanceof protobuf.Type) {
      if (depth < MAX_DEPTH && gen.chance(0.6)) result[field.name] = one();
    } else if (!hasPresence(field) && gen.chance(0.25)) {
      // Default values: proto3 leaves them off the wire, and both sides must agree on that.
      result[field.name] = field.resolvedType instanceof protobuf.Enum ? Object.keys(field.resolvedType.values)[0] : scalarDefault(field.type);
    } else {
      result[field.name] = one();
    }
  }
  return result;
}

function value(gen: Generator, field: protobuf.Field, depth: number): unknown {
  const target = field.resolvedType;
  if (target instanceof protobuf.Type) return message(gen, target, depth + 1);
  if (target instanceof protobuf.Enum) return gen.pick(Object.keys(target.values));
  return scalar(gen, field.type);
}

/**
 * The canonical decoded form of a message (what our decoder must produce): scalars without
 * presence carry their defaults, present-tracking fields only when set, repeated fields are
 * arrays, maps objects, enums names, bytes Buffers, 64-bit integers numbers, absent messages absent.
 * Accepts protobufjs's `toObject` output too (numbers for enums, Longs, Uint8Arrays, nulls).
 */
function canonical(type: protobuf.Type, input: Record<string, unknown>): ProtoMessage {
  const result: ProtoMessage = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const raw = input[field.name];
    const one = (item: unknown): unknown => canonicalValue(field, item);
    if (field.map) {
      result[field.name] = Object.fromEntries(Object.entries((raw ?? {}) as Record<string, unknown>).map(([k, v]) => [k, one(v)]));
    } else if (field.repeated) {
      result[field.name] = ((raw ?? []) as unknown[]).map(one);
    } else if (raw === undefined || raw === null) {
      if (!hasPresence(field) && !(field.resolvedType instanceof protobuf.Type)) result[field.name] = one(undefined);
    } else {
      result[field.name] = one(raw);
    }
  }
  return result;
}

function canonicalValue(field: protobuf.Field, raw: unknown): unknown {
  const target = field.resolvedType;
  if (target instanceof protobuf.Type) return canonical(target, (raw ?? {}) as Record<string, unknown>);
  if (target instanceof protobuf.Enum) {
    if (raw === undefined || raw === null) return Object.keys(target.values)[0];
    return typeof raw === 'number' ? target.valuesById[raw] : raw;
  }
  if (raw === undefined || raw === null) return scalarDefault(field.type);
  if (field.type === 'bytes') return Buffer.from(raw as Uint8Array);
  if (typeof raw === 'object') return Number(String(raw)); // a protobufjs Long
  return raw;
}

function messageTypes(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  const found: protobuf.Type[] = [];
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) found.push(nested);
    if (nested instanceof protobuf.Namespace) found.push(...messageTypes(nested));
  }
  return found;
}

// The reference reads the very descriptor our codec runs on (protobuf.test.ts checks that it
// matches the .proto files).
const reference = protobuf.Root.fromJSON(PROTOCOL_DESCRIPTOR as protobuf.INamespace);
reference.resolveAll();
const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR as DescriptorNode);
const types = messageTypes(reference);

describe('ProtoCodec against protobufjs, on random messages of every type', () => {
  it('covers every message type of the descriptor', () => {
    const messageNames = (node: DescriptorNode, prefix: string): string[] =>
      Object.entries(node.nested ?? {}).flatMap(([name, child]) => [
        ...(child.fields ? [`${prefix}${name}`] : []),
        ...messageNames(child, `${prefix}${name}.`),
      ]);
    const names = messageNames(PROTOCOL_DESCRIPTOR, '');
    expect(types.map((type) => type.fullName.slice(1)).sort()).toEqual(names.sort());
    expect(names).toEqual(expect.arrayContaining(['tfplugin6.ApplyResourceChange.Request', 'plugin.Empty', 'google.protobuf.Timestamp']));
  });

  it('covers the messages of functions, ephemeral resources and write-only attributes (protocol 6.8, Terraform 1.11)', () => {
    const newer = [
      'tfplugin6.GetFunctions.Request',
      'tfplugin6.GetFunctions.Response',
      'tfplugin6.Function',
      'tfplugin6.Function.Parameter',
      'tfplugin6.Function.Return',
      'tfplugin6.CallFunction.Request',
      'tfplugin6.CallFunction.Response',
      'tfplugin6.FunctionError',
      'tfplugin6.ValidateEphemeralResourceConfig.Request',
      'tfplugin6.ValidateEphemeralResourceConfig.Response',
      'tfplugin6.OpenEphemeralResource.Request',
      'tfplugin6.OpenEphemeralResource.Response',
      'tfplugin6.RenewEphemeralResource.Request',
      'tfplugin6.RenewEphemeralResource.Response',
      'tfplugin6.CloseEphemeralResource.Request',
      'tfplugin6.CloseEphemeralResource.Response',
      'tfplugin6.ClientCapabilities',
      'tfplugin6.GetMetadata.FunctionMetadata',
      'tfplugin6.GetMetadata.EphemeralMetadata',
    ];
    expect(types.map((type) => type.fullName.slice(1))).toEqual(expect.arrayContaining(newer));
    // The field numbers Terraform 1.11 uses (its tfplugin6.8.proto): the wire format.
    const field = (message: string, name: string): { id: number; type: string; optional: boolean } => {
      const found = reference.lookupType(message).fields[name]!;
      return { id: found.id, type: found.type, optional: Boolean(found.partOf) };
    };
    expect(field('tfplugin6.Schema.Attribute', 'write_only')).toEqual({ id: 11, type: 'bool', optional: false });
    expect(field('tfplugin6.ClientCapabilities', 'write_only_attributes_allowed')).toEqual({ id: 2, type: 'bool', optional: false });
    expect(field('tfplugin6.ValidateResourceConfig.Request', 'client_capabilities')).toMatchObject({ id: 3 });
    expect(field('tfplugin6.FunctionError', 'function_argument')).toEqual({ id: 2, type: 'int64', optional: true });
    expect(field('tfplugin6.OpenEphemeralResource.Response', 'renew_at')).toEqual({ id: 2, type: 'google.protobuf.Timestamp', optional: true });
    expect(field('tfplugin6.OpenEphemeralResource.Response', 'private')).toEqual({ id: 4, type: 'bytes', optional: true });
    expect(field('tfplugin6.GetProviderSchema.Response', 'functions')).toMatchObject({ id: 7 });
    expect(field('tfplugin6.GetProviderSchema.Response', 'ephemeral_resource_schemas')).toMatchObject({ id: 8 });
  });

  it.each(types.map((type) => [type.fullName.slice(1), type] as const))('%s', (name, type) => {
    const gen = new Generator(seededRandom(seedOf(name)));
    let checked = 0;
    for (let i = 0; i < CASES_PER_TYPE; i++) {
      const original = message(gen, type, 0);
      const expected = canonical(type, original);
      const context = `case ${i} of ${name} (seed ${BASE_SEED})`;

      // Ours encodes, protobufjs decodes.
      const ours = codec.encode(name, original);
      const theirsDecoded = canonical(type, type.toObject(type.decode(ours), { longs: Number, enums: String }));
      // jest's deep equality is slow for tens of thousands of cases: it only reports mismatches.
      if (!isDeepStrictEqual(theirsDecoded, expected)) expect([context, theirsDecoded]).toEqual([context, expected]);

      // protobufjs encodes, ours decodes (and must produce the canonical shape exactly).
      const oursDecoded = codec.decode(name, type.encode(type.fromObject(original)).finish());
      if (!isDeepStrictEqual(oursDecoded, expected)) expect([context, oursDecoded]).toEqual([context, expected]);
      checked++;
    }
    expect(checked).toBe(CASES_PER_TYPE);
  });
});
