/**
 * Schemas of the framework, seen by the protocol: the object type that decodes a resource's
 * values, and the checks of a schema definition. (The `tfplugin6.Schema` message Terraform
 * receives in GetProviderSchema is written by `toproto/provider.ts`.)
 */
import type { TerraformType } from '../protocol/terraform-type';
import type { Schema, StateUpgrade } from './types';
import { writeOnlyProblems } from './write-only';

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

/**
 * Problems with a schema definition itself (a bug of the provider, found at start-up).
 * `writeOnlyAllowed`: the schema is a managed resource's, the only kind with write-only attributes.
 */
export function checkSchema(owner: string, schema: Schema, writeOnlyAllowed = false): string[] {
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
    problems.push(...writeOnlyProblems(where, attribute, writeOnlyAllowed));
  }
  return problems;
}

/**
 * Problems with a resource's state upgrades (a bug of the provider, found at start-up): each must
 * start from a version below the current one and describe that version's schema.
 */
export function checkStateUpgrades(owner: string, schema: Schema, upgrades: { readonly [fromVersion: number]: StateUpgrade } | undefined): string[] {
  const problems: string[] = [];
  const current = schema.version ?? 0;
  for (const [from, upgrade] of Object.entries(upgrades ?? {})) {
    const version = Number(from);
    if (!Number.isInteger(version) || version < 0 || version >= current) {
      problems.push(`${owner}: a state upgrade from version ${from} must start below the schema version ${current}`);
    }
    if ((upgrade.priorSchema.version ?? 0) !== version) {
      problems.push(`${owner}: the state upgrade from version ${from} describes schema version ${upgrade.priorSchema.version ?? 0}`);
    }
    problems.push(...checkSchema(`${owner} (version ${from})`, upgrade.priorSchema, true));
  }
  return problems;
}
