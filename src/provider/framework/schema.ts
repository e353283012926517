/**
 * Schemas of the framework, seen by the protocol: the object type that decodes a resource's
 * values, and the checks of a schema definition. (The `tfplugin6.Schema` message Terraform
 * receives in GetProviderSchema is written by `toproto/provider.ts`.)
 */
import type { TerraformType } from '../protocol/terraform-type';
import type { Schema } from './types';

/** The Terraform object type of a schema's values: one attribute per schema attribute. */
export function schemaObjectType(schema: Schema): TerraformType {
  const attributes: Record<string, TerraformType> = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) attributes[name] = attribute.type;
  return ['object', attributes];
}

/** Names of the schema's attributes, sorted (Terraform's order). */
export function attributeNames(schema: Schema): string[] {
  return Object.keys(schema.attributes).sort();
}

/** Problems with a schema definition itself (a bug of the provider, found at start-up). */
export function checkSchema(owner: string, schema: Schema): string[] {
  const problems: string[] = [];
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const where = `${owner}.${name}`;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) problems.push(`${where}: attribute names are lower snake case`);
    const modes = [attribute.required, attribute.optional, attribute.computed].filter(Boolean).length;
    if (modes === 0) problems.push(`${where}: set one of required, optional, computed`);
    if (attribute.required && (attribute.optional || attribute.computed)) {
      problems.push(`${where}: required excludes optional and computed`);
    }
    if (attribute.useStateForUnknown && !attribute.computed) problems.push(`${where}: useStateForUnknown needs computed`);
  }
  return problems;
}
