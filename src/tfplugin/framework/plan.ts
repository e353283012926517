/**
 * The framework's plan for a managed resource, before the resource's own `modifyPlan`:
 *
 * - destroy (proposed state null): planned null;
 * - create: computed attributes the configuration leaves null are planned unknown ("known after
 *   apply"); planning them null would make Terraform reject the applied state as inconsistent;
 * - update: computed attributes the configuration leaves null keep their prior value when marked
 *   `useStateForUnknown` or when nothing else changes, and are planned unknown otherwise;
 *   `requiresReplace` attributes whose value changes are reported for replacement.
 */
import type { TerraformType } from '../protocol/terraform-type';
import { UNKNOWN, isUnknown } from '../protocol/unknown';
import type { AttributePath, ObjectValue, Schema, Value } from './types';

/** The framework's plan. */
export interface FrameworkPlan {
  /** The planned state; null for destroy. */
  readonly plannedState: ObjectValue | null;
  /** Attributes whose change forces replacement. */
  readonly requiresReplace: AttributePath[];
}

/** Terraform equality of two values of `type`: sets ignore order, unknown equals nothing. */
export function valuesEqual(a: Value, b: Value, type: TerraformType): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (a === null || b === null) return a === b;
  if (typeof type === 'string') return a === b;
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    if (kind === 'list') return a.every((item, i) => valuesEqual(item, b[i]!, inner as TerraformType));
    const rest = [...b];
    for (const item of a) {
      const at = rest.findIndex((other) => valuesEqual(item, other, inner as TerraformType));
      if (at < 0) return false;
      rest.splice(at, 1);
    }
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const elementType = kind === 'map' ? (inner as TerraformType) : (inner as Record<string, TerraformType>)[key];
    if (elementType === undefined) return false;
    if (!valuesEqual(a[key] ?? null, b[key] ?? null, elementType)) return false;
  }
  return true;
}

/**
 * `paths` without repeats, first occurrence kept: the framework and a resource's `modifyPlan`
 * may both ask to replace for the same attribute, and Terraform should get each path once.
 */
export function uniquePaths(paths: readonly AttributePath[]): AttributePath[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = JSON.stringify(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Computes the framework's plan from Terraform's proposed new state. */
export function planChange(
  schema: Schema,
  priorState: ObjectValue | null,
  proposedNewState: ObjectValue | null,
  config: ObjectValue | null,
): FrameworkPlan {
  if (proposedNewState === null) return { plannedState: null, requiresReplace: [] };
  const planned: ObjectValue = { ...proposedNewState };
  const attributes = Object.entries(schema.attributes);
  const unsetComputed = (name: string): boolean =>
    schema.attributes[name]!.computed === true && (config?.[name] ?? null) === null;

  if (priorState === null) {
    for (const [name] of attributes) if (unsetComputed(name)) planned[name] = UNKNOWN;
    return { plannedState: planned, requiresReplace: [] };
  }

  const changed = attributes.some(
    ([name, attribute]) => !unsetComputed(name) && !valuesEqual(planned[name] ?? null, priorState[name] ?? null, attribute.type),
  );
  if (changed) {
    for (const [name, attribute] of attributes) {
      if (unsetComputed(name) && !attribute.useStateForUnknown) planned[name] = UNKNOWN;
    }
  }
  const requiresReplace: AttributePath[] = [];
  for (const [name, attribute] of attributes) {
    if (attribute.requiresReplace && !unsetComputed(name) && !valuesEqual(planned[name] ?? null, priorState[name] ?? null, attribute.type)) {
      requiresReplace.push([name]);
    }
  }
  return { plannedState: planned, requiresReplace };
}
