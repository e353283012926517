/**
 * A harness for testing resources and data sources without the Terraform CLI: it drives the
 * same provider service Terraform talks to (msgpack encoding, plan choreography, diagnostics)
 * with plain values, and proposes new states the way Terraform does.
 *
 * One harness is one provider process: Terraform configures it once and plans each resource once
 * in it, so a test that needs a second process (another configuration, or the same create planned
 * again) makes a second harness.
 *
 * Private data travels as with Terraform: the harness remembers the private bytes of every state
 * object it returns and sends them with that object when a test passes it back (a plan's planned
 * private goes to the apply of that plan).
 *
 * @example
 * const harness = new ProviderHarness(orgadminProvider);
 * expect(await harness.configure({ base_url: url, realm: 'acme', ... })).toEqual([]);
 * const created = await harness.create('orgadmin_organization', { name: 'acme-eng', ... });
 * expect(created.diagnostics).toEqual([]);
 * expect((await harness.plan('orgadmin_organization', { priorState: created.state, config })).changed).toBe(false);
 * await harness.close();
 */
import { createJsonLogger, type JsonLogger } from '../protocol/log';
import type * as tfplugin6 from '../protocol/tfplugin6';
import { decodeMsgpackValue, encodeMsgpackValue } from '../protocol/values';
import * as fromproto from '../framework/fromproto/diagnostics';
import { ProviderService, type ProviderHandlers } from '../framework/provider-service';
import { schemaObjectType } from '../framework/schema';
import { valuesEqual } from '../framework/plan';
import type { AttributePath, Diagnostics, ObjectValue, ProviderDefinition, Schema, Value } from '../framework/types';

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
  /** The planned private data, as Terraform hands it to the apply. */
  readonly plannedPrivate?: Buffer;
}

/** A state and the diagnostics of the call that produced it. */
export interface HarnessState {
  /** The resulting state (null: gone, or nothing created). */
  readonly state: ObjectValue | null;
  /** Diagnostics of the calls that produced it. */
  readonly diagnostics: HarnessDiagnostic[];
}

/** The errors among `diagnostics`. */
export function errorsOf(diagnostics: readonly HarnessDiagnostic[]): HarnessDiagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

/** The warnings among `diagnostics`. */
export function warningsOf(diagnostics: readonly HarnessDiagnostic[]): HarnessDiagnostic[] {
  return diagnostics.filter((d) => d.severity === 'warning');
}

/** Every summary and detail, one per line: for "never shows this secret" assertions. */
export function diagnosticsText(diagnostics: readonly HarnessDiagnostic[]): string {
  return diagnostics.map((d) => `${d.summary}\n${d.detail}`).join('\n');
}

/**
 * {@link Diagnostics} that record what is reported, in the harness's shape: for unit tests of code
 * that takes diagnostics itself (validation rules, settings resolution, error reporting) rather
 * than being reached through the provider service.
 */
export class RecordingDiagnostics implements Diagnostics {
  /** Everything reported, in order. */
  readonly diagnostics: HarnessDiagnostic[] = [];

  /** {@inheritDoc Diagnostics.error} */
  error(summary: string, detail?: string, path?: AttributePath): void {
    this.diagnostics.push({ severity: 'error', summary, detail: detail ?? '', ...(path ? { path } : {}) });
  }

  /** {@inheritDoc Diagnostics.warning} */
  warning(summary: string, detail?: string, path?: AttributePath): void {
    this.diagnostics.push({ severity: 'warning', summary, detail: detail ?? '', ...(path ? { path } : {}) });
  }

  /** {@inheritDoc Diagnostics.hasErrors} */
  hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === 'error');
  }
}

/** The result of a function call: a value, or Terraform's function error. */
export interface HarnessFunctionCall {
  /** The result (undefined on error). */
  readonly result?: Value;
  /** The error: its text and, when one argument is at fault, its 0-based position. */
  readonly error?: { readonly text: string; readonly argument?: number };
}

/** An opened ephemeral resource. */
export interface HarnessEphemeral {
  /** Its value (null when the open failed). */
  readonly result: ObjectValue | null;
  /** When Terraform would renew it. */
  readonly renewAt?: Date;
  /** The private data, to hand to renew and close as Terraform does. */
  readonly private?: Buffer;
  /** Diagnostics of the validation and the open. */
  readonly diagnostics: HarnessDiagnostic[];
}

/** A plan and the apply of its planned state ({@link ProviderHarness.planThenApply}). */
export interface HarnessApply extends HarnessState {
  /** The plan that was applied, with its own diagnostics (`diagnostics` are the apply's). */
  readonly plan: HarnessPlan;
}

/** The state of a call that must succeed; throws with the diagnostics when it reported an error or left no state. */
export function stateOf(result: HarnessState): ObjectValue {
  if (result.state === null || result.diagnostics.some((d) => d.severity === 'error')) {
    throw new Error(`the call failed: ${JSON.stringify(result.diagnostics)}`);
  }
  return result.state;
}

function fromProtoDiagnostics(diagnostics: readonly tfplugin6.Diagnostic[] | undefined): HarnessDiagnostic[] {
  return fromproto.diagnostics(diagnostics).map((d) => ({
    severity: d.severity,
    summary: d.summary,
    detail: d.detail ?? '',
    ...(d.path ? { path: d.path.map((step) => ('attribute' in step ? step.attribute : 'key' in step ? step.key : step.index)) } : {}),
  }));
}

/** The time a `google.protobuf.Timestamp` names. */
function timestampDate(timestamp: tfplugin6.google_protobuf_Timestamp): Date {
  return new Date((timestamp.seconds ?? 0) * 1000 + Math.floor((timestamp.nanos ?? 0) / 1_000_000));
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
  private readonly service: ProviderService<TContext>;
  private readonly handlers: ProviderHandlers;
  /** Private bytes of the state objects this harness returned, as Terraform stores them beside the state. */
  private readonly privates = new WeakMap<object, Buffer>();

  /**
   * @param definition the provider under test
   * @param logger where the framework's and the provider's logs go (default: errors only, on
   *   stderr); pass `createJsonLogger({ ..., write })` to keep the lines for assertions
   */
  constructor(
    private readonly definition: ProviderDefinition<TContext>,
    logger: JsonLogger = createJsonLogger({ module: `test.${definition.typeName}`, level: 'error' }),
  ) {
    this.service = new ProviderService(definition, logger);
    this.handlers = this.service.handlers();
  }

  /** Closes the provider as Terraform's shutdown does (the definition's `close`, e.g. HTTP connections). */
  async close(): Promise<void> {
    await this.definition.close?.(this.service.providerContext);
  }

  /** Validates and configures the provider (missing attributes are null); returns the diagnostics. */
  async configure(config: ObjectValue): Promise<HarnessDiagnostic[]> {
    const encoded = this.encode(this.definition.schema, complete(this.definition.schema, config));
    const validated = fromProtoDiagnostics((await this.call('ValidateProviderConfig', { config: encoded })).diagnostics);
    if (validated.some((d) => d.severity === 'error')) return validated;
    return [...validated, ...fromProtoDiagnostics((await this.call('ConfigureProvider', { terraform_version: '1.11.4', config: encoded })).diagnostics)];
  }

  /**
   * ValidateResourceConfig, with the client capabilities Terraform 1.11 sends; `writeOnlyAllowed:
   * false` acts as an older Terraform that does not keep write-only values out of plans and state.
   */
  async validateResource(typeName: string, config: ObjectValue, options: { writeOnlyAllowed?: boolean } = {}): Promise<HarnessDiagnostic[]> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ValidateResourceConfig', {
      type_name: typeName,
      config: this.encode(schema, complete(schema, config)),
      client_capabilities: { deferral_allowed: false, write_only_attributes_allowed: options.writeOnlyAllowed ?? true },
    });
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
      prior_private: this.privateOf(req.priorState),
    });
    const plannedState = this.remember(this.decode(schema, response.planned_state), response.planned_private);
    const requiresReplace = fromProtoDiagnostics(
      (response.requires_replace ?? []).map((attribute) => ({ severity: 'ERROR' as const, summary: '', attribute })),
    ).map((d) => d.path ?? []);
    return {
      plannedState,
      requiresReplace,
      changed: !valuesEqual(plannedState as Value, prior as Value, schemaObjectType(schema)),
      diagnostics: fromProtoDiagnostics(response.diagnostics),
      ...(response.planned_private && response.planned_private.length > 0 ? { plannedPrivate: Buffer.from(response.planned_private) } : {}),
    };
  }

  /**
   * ApplyResourceChange. The planned private data is `plannedPrivate`, or else the one the harness
   * remembers for the `plannedState` object (the plan that returned it).
   */
  async apply(
    typeName: string,
    req: { priorState: ObjectValue | null; plannedState: ObjectValue | null; config: ObjectValue | null; plannedPrivate?: Buffer },
  ): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ApplyResourceChange', {
      type_name: typeName,
      prior_state: this.encode(schema, complete(schema, req.priorState)),
      planned_state: this.encode(schema, complete(schema, req.plannedState)),
      config: this.encode(schema, complete(schema, req.config)),
      planned_private: req.plannedPrivate ?? this.privateOf(req.plannedState),
    });
    return { state: this.remember(this.decode(schema, response.new_state), response.private), diagnostics: fromProtoDiagnostics(response.diagnostics) };
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

  /**
   * Plans, then applies the planned state whatever the plan reported. Terraform stops at plan
   * errors; tests use this to apply as if what the plan refused came about after the plan, when
   * the apply's own handling of it is under test.
   */
  async planThenApply(typeName: string, req: { priorState: ObjectValue | null; config: ObjectValue | null }): Promise<HarnessApply> {
    const plan = await this.plan(typeName, req);
    const applied = await this.apply(typeName, { priorState: req.priorState, plannedState: plan.plannedState, config: req.config, ...this.plannedPrivateOf(plan) });
    return { ...applied, plan };
  }

  /** ReadResource (refresh); a null state means the object is gone. */
  async read(typeName: string, state: ObjectValue): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ReadResource', {
      type_name: typeName,
      current_state: this.encode(schema, complete(schema, state)),
      private: this.privateOf(state),
    });
    return { state: this.remember(this.decode(schema, response.new_state), response.private), diagnostics: fromProtoDiagnostics(response.diagnostics) };
  }

  /** UpgradeResourceState of a state stored as JSON at schema `version`, as Terraform does before every plan. */
  async upgradeState(typeName: string, version: number, stored: ObjectValue): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('UpgradeResourceState', { type_name: typeName, version, raw_state: { json: Buffer.from(JSON.stringify(stored)) } });
    return { state: this.decode(schema, response.upgraded_state), diagnostics: fromProtoDiagnostics(response.diagnostics) };
  }

  /** ImportResourceState alone: the state the resource's import produced, before Terraform reads it. */
  async importResource(typeName: string, id: string): Promise<HarnessState> {
    const schema = this.resourceSchema(typeName);
    const response = await this.call('ImportResourceState', { type_name: typeName, id });
    const diagnostics = fromProtoDiagnostics(response.diagnostics);
    const imported = response.imported_resources?.[0];
    return { state: imported ? this.remember(this.decode(schema, imported.state), imported.private) : null, diagnostics };
  }

  /** ImportResourceState followed by ReadResource, as `terraform import` does. */
  async importState(typeName: string, id: string): Promise<HarnessState> {
    const { state, diagnostics } = await this.importResource(typeName, id);
    if (state === null || diagnostics.some((d) => d.severity === 'error')) return { state: null, diagnostics };
    const read = await this.read(typeName, state);
    return { state: read.state, diagnostics: [...diagnostics, ...read.diagnostics] };
  }

  /** ValidateDataResourceConfig. */
  async validateDataSource(typeName: string, config: ObjectValue): Promise<HarnessDiagnostic[]> {
    const schema = this.dataSourceSchema(typeName);
    const response = await this.call('ValidateDataResourceConfig', { type_name: typeName, config: this.encode(schema, complete(schema, config)) });
    return fromProtoDiagnostics(response.diagnostics);
  }

  /** ValidateDataResourceConfig then ReadDataSource. */
  async readDataSource(typeName: string, config: ObjectValue): Promise<HarnessState> {
    const schema = this.dataSourceSchema(typeName);
    const validated = await this.validateDataSource(typeName, config);
    if (validated.some((d) => d.severity === 'error')) return { state: null, diagnostics: validated };
    const response = await this.call('ReadDataSource', { type_name: typeName, config: this.encode(schema, complete(schema, config)) });
    return { state: this.decode(schema, response.state), diagnostics: [...validated, ...fromProtoDiagnostics(response.diagnostics)] };
  }

  /**
   * CallFunction, with the arguments encoded by the function's parameter types as Terraform does
   * (variadic arguments one by one, after the positional ones). Needs no configured provider.
   */
  async callFunction(name: string, args: readonly Value[]): Promise<HarnessFunctionCall> {
    const fn = (this.definition.functions ?? []).find((candidate) => candidate.name === name);
    if (!fn) throw new Error(`the provider has no function ${name}`);
    const encoded = args.map((arg, i) => {
      const parameter = i < fn.parameters.length ? fn.parameters[i] : fn.variadicParameter;
      if (!parameter) throw new Error(`function ${name} takes ${fn.parameters.length} arguments, ${args.length} given`);
      return { msgpack: encodeMsgpackValue(arg, parameter.type) };
    });
    const response = await this.call('CallFunction', { name, arguments: encoded });
    if (response.error) {
      return { error: { text: response.error.text ?? '', ...(response.error.function_argument !== undefined ? { argument: response.error.function_argument } : {}) } };
    }
    return { result: decodeMsgpackValue(response.result?.msgpack, fn.returnType) as Value };
  }

  /** ValidateEphemeralResourceConfig. */
  async validateEphemeral(typeName: string, config: ObjectValue): Promise<HarnessDiagnostic[]> {
    const schema = this.ephemeralSchema(typeName);
    const response = await this.call('ValidateEphemeralResourceConfig', { type_name: typeName, config: this.encode(schema, complete(schema, config)) });
    return fromProtoDiagnostics(response.diagnostics);
  }

  /** ValidateEphemeralResourceConfig then OpenEphemeralResource, as Terraform opens one. */
  async openEphemeral(typeName: string, config: ObjectValue): Promise<HarnessEphemeral> {
    const schema = this.ephemeralSchema(typeName);
    const validated = await this.validateEphemeral(typeName, config);
    if (errorsOf(validated).length > 0) return { result: null, diagnostics: validated };
    const response = await this.call('OpenEphemeralResource', {
      type_name: typeName,
      config: this.encode(schema, complete(schema, config)),
      client_capabilities: { deferral_allowed: false, write_only_attributes_allowed: true },
    });
    return {
      result: this.decode(schema, response.result),
      ...(response.renew_at ? { renewAt: timestampDate(response.renew_at) } : {}),
      ...(response.private ? { private: response.private } : {}),
      diagnostics: [...validated, ...fromProtoDiagnostics(response.diagnostics)],
    };
  }

  /** RenewEphemeralResource with the private data of an open (or the previous renew). */
  async renewEphemeral(typeName: string, privateData: Buffer | undefined): Promise<{ renewAt?: Date; private?: Buffer; diagnostics: HarnessDiagnostic[] }> {
    const response = await this.call('RenewEphemeralResource', { type_name: typeName, ...(privateData ? { private: privateData } : {}) });
    return {
      ...(response.renew_at ? { renewAt: timestampDate(response.renew_at) } : {}),
      ...(response.private ? { private: response.private } : {}),
      diagnostics: fromProtoDiagnostics(response.diagnostics),
    };
  }

  /** CloseEphemeralResource with the private data of an open; returns the diagnostics. */
  async closeEphemeral(typeName: string, privateData: Buffer | undefined): Promise<HarnessDiagnostic[]> {
    const response = await this.call('CloseEphemeralResource', { type_name: typeName, ...(privateData ? { private: privateData } : {}) });
    return fromProtoDiagnostics(response.diagnostics);
  }

  private ephemeralSchema(typeName: string): Schema {
    const found = (this.definition.ephemeralResources ?? []).find((e) => e.typeName === typeName);
    if (!found) throw new Error(`the provider has no ephemeral resource ${typeName}`);
    return found.schema;
  }

  private async planAndApply(typeName: string, priorState: ObjectValue | null, config: ObjectValue | null): Promise<HarnessState> {
    if (config !== null) {
      const validated = await this.validateResource(typeName, config);
      if (validated.some((d) => d.severity === 'error')) return { state: priorState, diagnostics: validated };
    }
    const plan = await this.plan(typeName, { priorState, config });
    if (plan.diagnostics.some((d) => d.severity === 'error')) return { state: priorState, diagnostics: plan.diagnostics };
    const applied = await this.apply(typeName, { priorState, plannedState: plan.plannedState, config, ...this.plannedPrivateOf(plan) });
    return { state: applied.state, diagnostics: [...plan.diagnostics, ...applied.diagnostics] };
  }

  /** The private bytes remembered for a state object this harness returned. */
  privateOf(state: ObjectValue | null): Buffer | undefined {
    return state === null ? undefined : this.privates.get(state);
  }

  private plannedPrivateOf(plan: HarnessPlan): { plannedPrivate?: Buffer } {
    return plan.plannedPrivate ? { plannedPrivate: plan.plannedPrivate } : {};
  }

  private remember(state: ObjectValue | null, bytes: Uint8Array | undefined): ObjectValue | null {
    if (state !== null && bytes && bytes.length > 0) this.privates.set(state, Buffer.from(bytes));
    return state;
  }

  private call<M extends keyof ProviderHandlers>(method: M, request: tfplugin6.ProviderMethods[M]['request']): Promise<tfplugin6.ProviderMethods[M]['response']> {
    return (this.handlers[method] as (request: tfplugin6.ProviderMethods[M]['request']) => Promise<tfplugin6.ProviderMethods[M]['response']>)(request);
  }

  private resourceSchema(typeName: string): Schema {
    const resource = this.definition.resources.find((r) => r.typeName === typeName);
    if (!resource) throw new Error(`the provider has no resource ${typeName}`);
    return resource.schema;
  }

  private dataSourceSchema(typeName: string): Schema {
    const dataSource = this.definition.dataSources.find((d) => d.typeName === typeName);
    if (!dataSource) throw new Error(`the provider has no data source ${typeName}`);
    return dataSource.schema;
  }

  private encode(schema: Schema, value: ObjectValue | null): { msgpack: Buffer } {
    return { msgpack: encodeMsgpackValue(value, schemaObjectType(schema)) };
  }

  private decode(schema: Schema, dynamic: tfplugin6.DynamicValue | undefined): ObjectValue | null {
    return decodeMsgpackValue(dynamic?.msgpack, schemaObjectType(schema)) as ObjectValue | null;
  }
}
