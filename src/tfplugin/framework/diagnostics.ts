/**
 * The {@link Diagnostics} that resources report into, turned into protocol diagnostics. Paths
 * given as names and indexes are resolved against the schema, because the protocol must know
 * whether `"alice"` is an attribute name or a map key.
 */
import type { Diagnostic, PathStep } from '../protocol/diagnostics';
import type { TerraformType } from '../protocol/terraform-type';
import type { AttributePath, Diagnostics, Schema } from './types';

/**
 * Converts a framework path to protocol steps, walking the schema's types: names inside objects
 * are attributes, strings inside maps are keys, numbers inside lists are indexes. A set element
 * has no address in the protocol, so the path stops at the set.
 */
export function toPathSteps(path: AttributePath, schema: Schema | undefined): PathStep[] {
  const steps: PathStep[] = [];
  let type: TerraformType | undefined;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    if (i === 0) {
      steps.push({ attribute: String(step) });
      type = schema?.attributes[String(step)]?.type;
      continue;
    }
    if (type === undefined) {
      // Unknown type: trust the JavaScript type of the step.
      steps.push(typeof step === 'number' ? { index: step } : { attribute: step });
      continue;
    }
    if (typeof type === 'string') break; // a primitive has nothing inside
    const [kind, inner] = type;
    if (kind === 'set') break;
    if (kind === 'list') {
      if (typeof step !== 'number') break;
      steps.push({ index: step });
      type = inner as TerraformType;
    } else if (kind === 'map') {
      steps.push({ key: String(step) });
      type = inner as TerraformType;
    } else {
      steps.push({ attribute: String(step) });
      type = (inner as Record<string, TerraformType>)[String(step)];
    }
  }
  return steps;
}

/** Collects the diagnostics of one call. */
export class DiagnosticsCollector implements Diagnostics {
  private readonly items: Diagnostic[] = [];

  /** @param schema the schema that paths refer to */
  constructor(private readonly schema?: Schema) {}

  /** {@inheritDoc Diagnostics.error} */
  error(summary: string, detail?: string, path?: AttributePath): void {
    this.items.push({ severity: 'error', summary, detail, path: path ? toPathSteps(path, this.schema) : undefined });
  }

  /** {@inheritDoc Diagnostics.warning} */
  warning(summary: string, detail?: string, path?: AttributePath): void {
    this.items.push({ severity: 'warning', summary, detail, path: path ? toPathSteps(path, this.schema) : undefined });
  }

  /** {@inheritDoc Diagnostics.hasErrors} */
  hasErrors(): boolean {
    return this.items.some((item) => item.severity === 'error');
  }

  /** Everything collected so far. */
  all(): readonly Diagnostic[] {
    return this.items;
  }
}
