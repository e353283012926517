/**
 * A harness for testing resources and data sources without the Terraform CLI: it drives the
 * same provider service Terraform talks to (msgpack encoding, plan choreography, diagnostics)
 * with plain values, and proposes new states the way Terraform does.
 *
 * @example
 * const harness = new ProviderHarness(orgadminProvider);
 * expect(await harness.configure({ base_url: url, realm: 'acme', ... })).toEqual([]);
 * const created = await harness.create('orgadmin_organization', { name: 'acme-eng', ... });
 * expect(created.diagnostics).toEqual([]);
 * expect((await harness.plan('orgadmin_organization', { priorState: created.state, config })).changed).toBe(false);
 */
import { createJsonLogger, type JsonLogger } from '../protocol/log';
import type { ProtoMessage } from '../protocol/protobuf';
import { decodeMsgpackValue, encodeMsgpackValue } from '../protocol/values';
import { ProviderService } from './provider-service';
import { schemaObjectType } from './schema';
import { valuesEqual } from './plan';
import type { ObjectValue, ProviderDefinition, Schema, Value } from './types';

/** A diagnostic as a test sees it: the path is plain names, keys and indexes. */
export interface HarnessDiagnostic {
  /** Error or warning. */
  readonly severity: 'error' | 'warning';
  /** Short summary. */
  readonly summary: string;
  /** Detail ('' when none). */
  readonly detail: string;
  /** Attribute path: attribute names and map keys as strings, list indexes as numbers. */
  readonly path?: ReadonlyArray<string | number>;
}

/** The result of planning a change. */
export interface HarnessPlan {
  /** The planned state (null for destroy). */
  readonly plannedState: ObjectValue | null;
  /** Attributes whose change forces replacement. */
  readonly requiresReplace: ReadonlyArray<ReadonlyArray<string | number>>;
  /** True when the planned state differs from the prior state (Terraform would show a diff). */
  readonly changed: boolean;
  /** Diagnostics of the plan. */
  readonly diagnostics: HarnessDiagnostic[];
}

/** A state and the diagnostics of the call that produced it. */
export interface HarnessState {
  /** The resulting state (null: gone, or nothing created). */
  readonly state: ObjectValue | null;
  /** Diagnostics of the calls that produced it. */
  readonly diagnostics: HarnessDiagnostic[];
}

function fromProtoDiagnostics(diagnostics: unknown): HarnessDiagnostic[] {
  return ((diagnostics as ProtoMessage[] | undefined) ?? []).map((d) => {
    const steps = ((d.attribute as ProtoMessage | undefined)?.steps as ProtoMessage[] | undefined) ?? [];
    const path = steps.map((step) =>
      step.attribute_name !== undefined ? String(step.attribute_name) : step.element_key_string !== undefined ? String(step.element_key_string) : Number(step.element_key_int),
    );
    return {
      severity: d.severity === 'ERROR' ? 'error' : 'warning',
      summary: String(d.summary),
      detail: String(d.detail ?? ''),
      ...(path.length > 0 ? { path } : {}),
    };
  });
}

/** Completes a partial object with null for every attribute it does not mention. */
function complete(schema: Schema, value: ObjectValue | null): ObjectValue | null {
  if (value === null) return null;
  const result: ObjectValue = {};
  for (const name of Object.keys(schema.attributes)) result[name] = value[name] ?? null;
  return result;
}

/**
 * Terraform's proposed new state: the configuration, with computed attributes the configuration
 * leaves null taken from the prior state.
 */
export function proposeNewState(schema: Schema, priorState: ObjectValue | null, config: ObjectValue): ObjectValue {
  const proposed: ObjectValue = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const configured = config[name] ?? null;
    proposed[name] = attribute.computed && configured === null ? (priorState?.[name] ?? null) : configured;
  }
  return proposed;
}

/** Drives a provider definition through the provider service with plain values. */
export class ProviderHarness<TContext> {
  private readonly handlers: ReturnType<ProviderService<TContext>['handlers']>;

  /**
   * @param definition the provider under test
   * @param logger where provider logs go (default: errors only, on stderr)
   */
  constructor(
    private readonly definition: ProviderDefinition<TContext>,
    logger: JsonLogger = createJsonLogger({ module: `test.${definition.typeName}`, level: 'error' }),
  ) {
    this.handlers = new ProviderService(definition, logger).handlers();
  }

  /** Validates and configures the provider (missing attributes are null); returns the diagnostics. */
  async configure(config: ObjectValue): Promise<HarnessDiagnostic[]> {
    const encoded = this.encode(this.definition.schema, complete(this.definition.schema, config));
    const validated = fromProtoDiagnostics((await this.call('ValidateProviderConfig', { config: encoded })).diagnostics);
    if (validated.some((d) => d.severity === 'error')) return validated;
    return [...validated, ...fromProtoDiagnostics((await this.call('ConfigureProvider', { terraform_version: '1.11.4', config: encoded })).diagnostics)];
  }

  /** ValidateResourceConfig. */
  async validateResource(typeName: string, config: ObjectValue): Promise<HarnessDiagnostic[]> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ValidateResourceConfig', { type_name: typeName, config: this.encode(schema, complete(schema, config)) });
    return fromProtoDiagnostics(response.diagnostics);
  }

  /** PlanResourceChange, with the proposed new state computed as Terraform does (config null: destroy). */
  async plan(typeName: string, req: { priorState: ObjectValue | null; config: ObjectValue | null }): Promise<HarnessPlan> {
    const schema = this.resourceSchema(typeName);
    const config = complete(schema, req.config);
    const prior = complete(schema, req.priorState);
    const proposed = config === null ? null : proposeNewState(schema, prior, config);
    const response = await this.call('PlanResourceChange', {
      type_name: typeName,
      prior_state: this.encode(schema, prior),
      proposed_new_state: this.encode(schema, proposed),
      config: this.encode(schema, config),
    });
    const plannedState = this.decode(schema, response.planned_state);
    const requiresReplace = fromProtoDiagnostics(
      ((response.requires_replace as ProtoMessage[] | undefined) ?? []).map((attribute) => ({ severity: 'ERROR', summary: '', attribute })),
    ).map((d) => d.path ?? []);
    return {
      plannedState,
      requiresReplace,
      changed: !valuesEqual(plannedState as Value, prior as Value, schemaObjectType(schema)),
      diagnostics: fromProtoDiagnostics(response.diagnostics),
    };
  }

  /** ApplyResourceChange. */
  async apply(typeName: string, req: { priorState: ObjectValue | null; plannedState: ObjectValue | null; config: ObjectValue | null }): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ApplyResourceChange', {
      type_name: typeName,
      prior_state: this.encode(schema, complete(schema, req.priorState)),
      planned_state: this.encode(schema, complete(schema, req.plannedState)),
      config: this.encode(schema, complete(schema, req.config)),
    });
    return { state: this.decode(schema, response.new_state), diagnostics: fromProtoDiagnostics(response.diagnostics) };
  }

  /** Validate, plan and apply a create, as `terraform apply` does for a new resource. */
  async create(typeName: string, config: ObjectValue): Promise<HarnessState> {
    return this.planAndApply(typeName, null, config);
  }

  /** Plan and apply an update of `priorState` to `config`. */
  async update(typeName: string, priorState: ObjectValue, config: ObjectValue): Promise<HarnessState> {
    return this.planAndApply(typeName, priorState, config);
  }

  /** Plan and apply a destroy. */
  async destroy(typeName: string, priorState: ObjectValue): Promise<HarnessState> {
    return this.planAndApply(typeName, priorState, null);
  }

  /** ReadResource (refresh); a null state means the object is gone. */
  async read(typeName: string, state: ObjectValue): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ReadResource', { type_name: typeName, current_state: this.encode(schema, complete(schema, state)) });
    return { state: this.decode(schema, response.new_state), diagnostics: fromProtoDiagnostics(response.diagnostics) };
  }

  /** ImportResourceState followed by ReadResource, as `terraform import` does. */
  async importState(typeName: string, id: string): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ImportResourceState', { type_name: typeName, id });
    const diagnostics = fromProtoDiagnostics(response.diagnostics);
    const imported = (response.imported_resources as ProtoMessage[] | undefined)?.[0];
    if (!imported || diagnostics.some((d) => d.severity === 'error')) return { state: null, diagnostics };
    const state = this.decode(schema, imported.state);
    if (state === null) return { state, diagnostics };
    const read = await this.read(typeName, state);
    return { state: read.state, diagnostics: [...diagnostics, ...read.diagnostics] };
  }

  /** ValidateDataResourceConfig then ReadDataSource. */
  async readDataSource(typeName: string, config: ObjectValue): Promise<HarnessState> {
    const dataSource = this.definition.dataSources.find((d) => d.typeName === typeName);
    if (!dataSource) throw new Error(`the provider has no data source ${typeName}`);
    const encoded = this.encode(dataSource.schema, complete(dataSource.schema, config));
    const validated = fromProtoDiagnostics((await this.call('ValidateDataResourceConfig', { type_name: typeName, config: encoded })).diagnostics);
    if (validated.some((d) => d.severity === 'error')) return { state: null, diagnostics: validated };
    const response = await this.call('ReadDataSource', { type_name: typeName, config: encoded });
    return { state: this.decode(dataSource.schema, response.state), diagnostics: [...validated, ...fromProtoDiagnostics(response.diagnostics)] };
  }

  private async planAndApply(typeName: string, priorState: ObjectValue | null, config: ObjectValue | null): Promise<HarnessState> {
    if (config !== null) {
      const validated = await this.validateResource(typeName, config);
      if (validated.some((d) => d.severity === 'error')) return { state: priorState, diagnostics: validated };
    }
    const plan = await this.plan(typeName, { priorState, config });
    if (plan.diagnostics.some((d) => d.severity === 'error')) return { state: priorState, diagnostics: plan.diagnostics };
    const applied = await this.apply(typeName, { priorState, plannedState: plan.plannedState, config });
    return { state: applied.state, diagnostics: [...plan.diagnostics, ...applied.diagnostics] };
  }

  private async call(method: string, request: ProtoMessage): Promise<ProtoMessage> {
    return this.handlers[method]!(request);
  }

  private resourceSchema(typeName: string): Schema {
    const resource = this.definition.resources.find((r) => r.typeName === typeName);
    if (!resource) throw new Error(`the provider has no resource ${typeName}`);
    return resource.schema;
  }

  private encode(schema: Schema, value: ObjectValue | null): { msgpack: Buffer } {
    return { msgpack: encodeMsgpackValue(value, schemaObjectType(schema)) };
  }

  private decode(schema: Schema, dynamic: unknown): ObjectValue | null {
    const bytes = (dynamic as { msgpack?: Buffer } | undefined)?.msgpack;
    return decodeMsgpackValue(bytes, schemaObjectType(schema)) as ObjectValue | null;
  }
}
