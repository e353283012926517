/**
 * Values crossing the framework: Terraform's msgpack/JSON values decoded against a schema into
 * plain objects for resources, resources' states encoded back, and the check that a returned
 * state has no unknown left. Problems become diagnostics and end the call ({@link Abort}).
 */
import type { TerraformValue } from '../../protocol/terraform-type';
import { isUnknown } from '../../protocol/unknown';
import { decodeJsonValue, decodeMsgpackValue, encodeMsgpackValue, ValueCodecError } from '../../protocol/values';
import type { DiagnosticsCollector } from '../diagnostics';
import type { DynamicValue } from '../provider-server';
import { schemaObjectType } from '../schema';
import type { ObjectValue, Schema, Value } from '../types';
import { Abort } from './call';

/** The path of the first unknown inside `value` (depth first), or undefined when it is fully known. */
function findUnknown(value: Value, path: (string | number)[] = []): (string | number)[] | undefined {
  if (isUnknown(value)) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnknown(value[i]!, [...path, i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnknown(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Decodes an object value of `schema` (null when absent); `what` names it in diagnostics. */
export function decodeObject(value: DynamicValue | undefined, schema: Schema, diags: DiagnosticsCollector, what: string): ObjectValue | null {
  try {
    let decoded: TerraformValue;
    if (value?.msgpack && value.msgpack.length > 0) decoded = decodeMsgpackValue(value.msgpack, schemaObjectType(schema));
    else if (value?.json && value.json.length > 0) {
      decoded = decodeJsonValue(JSON.parse(value.json.toString('utf8')), schemaObjectType(schema));
    } else decoded = null;
    if (isUnknown(decoded)) {
      diags.error('Unknown value from Terraform', `The whole ${what} is unknown; this provider needs its attributes.`);
      throw new Abort();
    }
    return decoded as ObjectValue | null;
  } catch (error) {
    if (error instanceof Abort) throw error;
    if (error instanceof ValueCodecError || error instanceof SyntaxError) {
      diags.error('Invalid value from Terraform', `The ${what} does not match the schema: ${error.message}.`);
      throw new Abort();
    }
    throw error;
  }
}

/** Encodes an object value of `schema` as msgpack; a value that does not fit is a provider bug. */
export function encodeObject(value: ObjectValue | null, schema: Schema, diags: DiagnosticsCollector, what: string): { msgpack: Buffer } {
  try {
    return { msgpack: encodeMsgpackValue(value, schemaObjectType(schema)) };
  } catch (error) {
    if (error instanceof ValueCodecError) {
      diags.error('Provider produced an invalid value', `The ${what} does not match the schema: ${error.message}. This is a bug in the provider.`);
      throw new Abort();
    }
    throw error;
  }
}

/**
 * Completes a state the provider returned with null for attributes it left out, and checks that
 * no unknown is left (Terraform would reject it).
 */
export function checkKnown(
  state: ObjectValue,
  owner: { typeName: string; schema: Schema },
  diags: DiagnosticsCollector,
  operation: string,
): ObjectValue {
  const complete: ObjectValue = {};
  for (const name of Object.keys(owner.schema.attributes)) complete[name] = state[name] ?? null;
  for (const name of Object.keys(state)) if (!(name in complete)) complete[name] = state[name]!;
  const unknownAt = findUnknown(complete);
  if (unknownAt) {
    diags.error(
      'Provider returned an unknown value',
      `${owner.typeName}.${operation} left ${unknownAt.join('.')} unknown; every value must be known after it. This is a bug in the provider.`,
      unknownAt,
    );
    throw new Abort();
  }
  return complete;
}
