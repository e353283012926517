/**
 * Terraform values on the wire (`DynamicValue`), decoded and encoded with their type.
 *
 * The type decides the shape: msgpack has one array form for lists and sets and one map form for
 * maps and objects. Known, null and unknown stay apart: null is JavaScript `null`, unknown is the
 * {@link UNKNOWN} sentinel (from any msgpack extension), and an object always carries every
 * attribute of its type (null where absent), because Terraform rejects an object missing one.
 */
import { MsgpackError, MsgpackWriter, readMsgpack, type MsgpackItem } from './msgpack';
import type { TerraformType, TerraformValue } from './terraform-type';
import { UNKNOWN } from './unknown';

/** Raised when a value does not fit its type; `path` says where. */
export class ValueCodecError extends Error {
  override readonly name = 'ValueCodecError';
  /** Where in the value the problem is, e.g. `members[2].email`. */
  readonly path: string;

  constructor(message: string, path: string) {
    super(path ? `${path}: ${message}` : message);
    this.path = path;
  }
}

/** Decodes msgpack bytes as a value of `type`. Empty bytes decode to null. */
export function decodeMsgpackValue(bytes: Uint8Array | undefined, type: TerraformType): TerraformValue {
  if (!bytes || bytes.length === 0) return null;
  let item: MsgpackItem;
  try {
    item = readMsgpack(bytes);
  } catch (error) {
    if (error instanceof MsgpackError) throw new ValueCodecError(error.message, '');
    throw error;
  }
  return fromItem(item, type, '');
}

/** Encodes a value of `type` as msgpack. */
export function encodeMsgpackValue(value: TerraformValue, type: TerraformType): Buffer {
  const writer = new MsgpackWriter();
  writeValue(writer, value, type, '');
  return writer.toBuffer();
}

/**
 * Decodes a JSON value (as stored in Terraform state, already parsed) as a value of `type`.
 * Attributes that the type does not know are dropped: state written by an older schema may
 * carry attributes that were removed since.
 */
export function decodeJsonValue(json: unknown, type: TerraformType): TerraformValue {
  return fromItem(json as MsgpackItem, type, '', true);
}

function describe(item: unknown): string {
  if (Buffer.isBuffer(item)) return 'binary data';
  if (Array.isArray(item)) return 'an array';
  if (item === UNKNOWN) return 'unknown';
  return item === null ? 'null' : typeof item;
}

function fromItem(item: MsgpackItem, type: TerraformType, path: string, lenientObjects = false): TerraformValue {
  if (item === null) return null;
  if (item === UNKNOWN) return UNKNOWN;
  if (type === 'string') {
    if (typeof item === 'string') return item;
    throw new ValueCodecError(`expected a string, got ${describe(item)}`, path);
  }
  if (type === 'number') {
    if (typeof item === 'number') return item;
    // Terraform writes numbers that do not fit int64 or float64 exactly as decimal strings.
    if (typeof item === 'string' && item.trim() !== '' && Number.isFinite(Number(item))) return Number(item);
    throw new ValueCodecError(`expected a number, got ${describe(item)}`, path);
  }
  if (type === 'bool') {
    if (typeof item === 'boolean') return item;
    throw new ValueCodecError(`expected a bool, got ${describe(item)}`, path);
  }
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(item)) throw new ValueCodecError(`expected a ${kind}, got ${describe(item)}`, path);
    return item.map((element, index) => fromItem(element, inner, `${path}[${index}]`, lenientObjects));
  }
  if (item === null || typeof item !== 'object' || Array.isArray(item) || Buffer.isBuffer(item)) {
    throw new ValueCodecError(`expected ${kind === 'map' ? 'a map' : 'an object'}, got ${describe(item)}`, path);
  }
  if (kind === 'map') {
    return Object.fromEntries(
      Object.entries(item).map(([key, element]) => [key, fromItem(element, inner, `${path}[${JSON.stringify(key)}]`, lenientObjects)]),
    );
  }
  const result: { [key: string]: TerraformValue } = {};
  for (const [name, attributeType] of Object.entries(inner)) {
    const attributePath = path ? `${path}.${name}` : name;
    result[name] = Object.prototype.hasOwnProperty.call(item, name)
      ? fromItem(item[name]!, attributeType, attributePath, lenientObjects)
      : null;
  }
  if (!lenientObjects) {
    for (const name of Object.keys(item)) {
      if (!Object.prototype.hasOwnProperty.call(inner, name)) {
        throw new ValueCodecError(`unexpected attribute ${JSON.stringify(name)}`, path);
      }
    }
  }
  return result;
}

function writeValue(writer: MsgpackWriter, value: TerraformValue | undefined, type: TerraformType, path: string): void {
  if (value === null || value === undefined) return writer.nil();
  if (value === UNKNOWN) return writer.unknown();
  if (type === 'string') {
    if (typeof value !== 'string') throw new ValueCodecError(`expected a string, got ${describe(value)}`, path);
    return writer.string(value);
  }
  if (type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new ValueCodecError(`expected a finite number, got ${describe(value)}`, path);
    }
    return writer.number(value);
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new ValueCodecError(`expected a bool, got ${describe(value)}`, path);
    return writer.bool(value);
  }
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(value)) throw new ValueCodecError(`expected a ${kind}, got ${describe(value)}`, path);
    writer.arrayHeader(value.length);
    value.forEach((element, index) => writeValue(writer, element, inner, `${path}[${index}]`));
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValueCodecError(`expected ${kind === 'map' ? 'a map' : 'an object'}, got ${describe(value)}`, path);
  }
  if (kind === 'map') {
    const keys = Object.keys(value).sort();
    writer.mapHeader(keys.length);
    for (const key of keys) {
      writer.string(key);
      writeValue(writer, value[key], inner, `${path}[${JSON.stringify(key)}]`);
    }
    return;
  }
  for (const name of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(inner, name)) {
      throw new ValueCodecError(`unexpected attribute ${JSON.stringify(name)}`, path);
    }
  }
  // Every attribute of the type, null where the value has none: Terraform requires all of them.
  const attributes = inner as { readonly [attribute: string]: TerraformType };
  const names = Object.keys(attributes).sort();
  writer.mapHeader(names.length);
  for (const name of names) {
    writer.string(name);
    writeValue(writer, Object.prototype.hasOwnProperty.call(value, name) ? value[name] : null, attributes[name]!, path ? `${path}.${name}` : name);
  }
}
