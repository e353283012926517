/**
 * Terraform types as the protocol writes them: the JSON type constraints of Terraform's type
 * system (`"string"`, `["set","string"]`, `["object",{"a":"bool"}]`). Schemas send them as JSON
 * bytes; the value codec needs them to tell sets, lists, maps and objects apart.
 */
import type { Unknown } from './unknown';

/** A Terraform type constraint. */
export type TerraformType =
  | 'string'
  | 'number'
  | 'bool'
  | readonly ['list' | 'set' | 'map', TerraformType]
  | readonly ['object', { readonly [attribute: string]: TerraformType }];

/**
 * A decoded Terraform value: null, the unknown sentinel, a string, number or boolean, an array
 * (list or set) or a plain object (map or object).
 */
export type TerraformValue =
  | null
  | Unknown
  | string
  | number
  | boolean
  | TerraformValue[]
  | { [key: string]: TerraformValue };

/** Raised when a type constraint is malformed. */
export class TerraformTypeError extends Error {
  override readonly name = 'TerraformTypeError';
}

/** Checks that `json` (already parsed) is a type constraint this codec supports. */
export function parseTerraformType(json: unknown): TerraformType {
  if (json === 'string' || json === 'number' || json === 'bool') return json;
  if (Array.isArray(json) && json.length === 2) {
    const [kind, inner] = json as [unknown, unknown];
    if (kind === 'list' || kind === 'set' || kind === 'map') return [kind, parseTerraformType(inner)];
    if (kind === 'object' && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      const attributes: Record<string, TerraformType> = {};
      for (const [name, type] of Object.entries(inner)) attributes[name] = parseTerraformType(type);
      return ['object', attributes];
    }
  }
  throw new TerraformTypeError(`unsupported Terraform type ${JSON.stringify(json)}`);
}

/** The JSON bytes of a type, as `Schema.Attribute.type` carries them. */
export function typeToJsonBytes(type: TerraformType): Buffer {
  return Buffer.from(JSON.stringify(type), 'utf8');
}
