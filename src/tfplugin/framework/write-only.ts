/**
 * Write-only attributes (Terraform 1.11 and later): values a resource receives in its
 * configuration and never gives back. Terraform refuses a plan or state that holds one ("Provider
 * produced invalid plan ... returned a value for the write-only attribute"), so the framework sets
 * them null in every state it sends (planned, applied, read, imported, upgraded); and a Terraform
 * too old to know them would store the value like any other, so the framework refuses a
 * configuration that sets one unless Terraform says it supports them (ClientCapabilities).
 */
import type { TerraformType } from '../protocol/terraform-type';
import type { ClientCapabilities } from './provider-server';
import type { AttributeSchema, Diagnostics, ObjectValue, Schema } from './types';

/** Names of the schema's write-only attributes. */
export function writeOnlyNames(schema: Schema): string[] {
  return Object.entries(schema.attributes)
    .filter(([, attribute]) => attribute.writeOnly === true)
    .map(([name]) => name);
}

/** `value` with every write-only attribute null (the same object when the schema has none). */
export function withoutWriteOnly<T extends ObjectValue | null>(schema: Schema, value: T): T {
  if (value === null) return value;
  const names = writeOnlyNames(schema);
  if (names.length === 0) return value;
  const copy: ObjectValue = { ...value };
  for (const name of names) copy[name] = null;
  return copy as T;
}

/**
 * Reports an error on each write-only attribute the configuration sets when Terraform did not say
 * it keeps them out of plans and state (`capabilities` absent: a Terraform older than 1.11).
 */
export function checkWriteOnlyAllowed(
  schema: Schema,
  config: ObjectValue,
  capabilities: ClientCapabilities | undefined,
  diags: Diagnostics,
): void {
  if (capabilities?.writeOnlyAttributesAllowed) return;
  for (const name of writeOnlyNames(schema)) {
    if ((config[name] ?? null) === null) continue;
    diags.error(
      'Write-only attribute not supported by this Terraform',
      `\`${name}\` is write-only: its value is never stored in plan or state, which needs Terraform 1.11 or later. ` +
        'This Terraform would store it. Upgrade Terraform, or leave the attribute out.',
      [name],
    );
  }
}

function containsSet(type: TerraformType): boolean {
  if (typeof type === 'string') return false;
  const [kind, inner] = type;
  if (kind === 'set') return true;
  if (kind === 'object') return Object.values(inner as Record<string, TerraformType>).some(containsSet);
  return containsSet(inner as TerraformType);
}

/**
 * Problems of one write-only attribute's definition (provider bugs, found at start-up). Write-only
 * values live only in the configuration, so nothing the provider computes or keeps may hold one.
 */
export function writeOnlyProblems(where: string, attribute: AttributeSchema, allowed: boolean): string[] {
  if (!attribute.writeOnly) return [];
  if (!allowed) return [`${where}: only managed resources have write-only attributes`];
  const problems: string[] = [];
  if (attribute.computed) problems.push(`${where}: a write-only attribute cannot be computed`);
  if (attribute.requiresReplace) problems.push(`${where}: a write-only attribute cannot require replacement (it is never in state to compare)`);
  if (attribute.useStateForUnknown) problems.push(`${where}: a write-only attribute has no state to keep`);
  if (containsSet(attribute.type)) problems.push(`${where}: a write-only attribute cannot hold a set (Terraform cannot address its elements)`);
  return problems;
}
