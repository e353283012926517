/**
 * The `tfplugin6.Provider` service of a {@link ProviderDefinition}: each RPC converts the
 * protocol's request into plain values, calls the provider, resource or data source, and converts
 * the answer back. Resources never see protobuf or msgpack.
 *
 * Two error channels: what users must act on is a diagnostic; an exception thrown by provider
 * code is a bug, logged with its stack and reported as "internal error in <type>.<op>".
 * RPCs may arrive concurrently (`-parallelism`): the only shared state is the context that
 * ConfigureProvider stores once.
 */
import { toProtoAttributePath, toProtoDiagnostic } from '../protocol/diagnostics';
import type { JsonLogger } from '../protocol/log';
import type { ProtoMessage } from '../protocol/protobuf';
import type { TerraformValue } from '../protocol/terraform-type';
import { isUnknown } from '../protocol/unknown';
import { decodeJsonValue, decodeMsgpackValue, encodeMsgpackValue, ValueCodecError } from '../protocol/values';
import { DiagnosticsCollector, toPathSteps } from './diagnostics';
import { planChange, uniquePaths } from './plan';
import { checkSchema, schemaObjectType, toProtoSchema } from './schema';
import type { DataSource, Logger, ObjectValue, PlanModification, ProviderDefinition, Resource, Schema, Value } from './types';

/** Handlers of the `tfplugin6.Provider` methods, keyed by method name. */
export type ProviderHandlers = { [method: string]: (request: ProtoMessage) => Promise<ProtoMessage> | ProtoMessage };

type DynamicValue = { msgpack?: Buffer; json?: Buffer } | undefined;

const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: false, move_resource_state: false };

/** Thrown inside a handler to stop it after reporting diagnostics. */
class Abort extends Error {}

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

/** Implements the provider service for one definition. */
export class ProviderService<TContext> {
  private readonly resources = new Map<string, Resource<TContext>>();
  private readonly dataSources = new Map<string, DataSource<TContext>>();
  private schemaResponse: ProtoMessage | undefined;
  private context: TContext | undefined;
  private configured = false;
  private readonly providerLogger: Logger;

  /**
   * @param definition the provider, its resources and data sources
   * @param logger the process's hclog-style logger; also handed to the provider as its logger
   */
  constructor(
    private readonly definition: ProviderDefinition<TContext>,
    private readonly logger: JsonLogger,
  ) {
    for (const resource of definition.resources) this.resources.set(resource.typeName, resource);
    for (const dataSource of definition.dataSources) this.dataSources.set(dataSource.typeName, dataSource);
    this.providerLogger = logger;
  }

  /** The configured context (undefined before ConfigureProvider or when it failed). */
  get providerContext(): TContext | undefined {
    return this.context;
  }

  /** The RPC handlers, ready for `GrpcServer#addService('tfplugin6.Provider', …)`. */
  handlers(): ProviderHandlers {
    return {
      GetMetadata: () => this.getMetadata(),
      GetProviderSchema: () => this.getProviderSchema(),
      GetResourceIdentitySchemas: () => ({ identity_schemas: {}, diagnostics: [] }),
      ValidateProviderConfig: (r) => this.validateProviderConfig(r),
      ValidateResourceConfig: (r) => this.validateResourceConfig(r),
      ValidateDataResourceConfig: (r) => this.validateDataResourceConfig(r),
      UpgradeResourceState: (r) => this.upgradeResourceState(r),
      UpgradeResourceIdentity: (r) => this.unsupported(`${String(r.type_name)} has no resource identity`),
      ConfigureProvider: (r) => this.configureProvider(r),
      ReadResource: (r) => this.readResource(r),
      PlanResourceChange: (r) => this.planResourceChange(r),
      ApplyResourceChange: (r) => this.applyResourceChange(r),
      ImportResourceState: (r) => this.importResourceState(r),
      MoveResourceState: (r) =>
        this.unsupported(`moving ${String(r.source_type_name)} to ${String(r.target_type_name)} is not supported`),
      ReadDataSource: (r) => this.readDataSource(r),
      ValidateEphemeralResourceConfig: (r) => this.unsupported(`unknown ephemeral resource type ${String(r.type_name)}`),
      OpenEphemeralResource: (r) => this.unsupported(`unknown ephemeral resource type ${String(r.type_name)}`),
      RenewEphemeralResource: (r) => this.unsupported(`unknown ephemeral resource type ${String(r.type_name)}`),
      CloseEphemeralResource: (r) => this.unsupported(`unknown ephemeral resource type ${String(r.type_name)}`),
      GetFunctions: () => ({ functions: {}, diagnostics: [] }),
      CallFunction: (r) => ({ error: { text: `this provider defines no function ${String(r.name)}` } }),
      StopProvider: () => ({ Error: '' }),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Schema and metadata

  private getMetadata(): ProtoMessage {
    return {
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      resources: [...this.resources.keys()].map((type_name) => ({ type_name })),
      data_sources: [...this.dataSources.keys()].map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
    };
  }

  private getProviderSchema(): ProtoMessage {
    // Built once per process: three processes per command each ask for it.
    if (!this.schemaResponse) {
      const diags = new DiagnosticsCollector();
      const problems = [
        ...checkSchema(`provider ${this.definition.typeName}`, this.definition.schema),
        ...this.definition.resources.flatMap((r) => checkSchema(r.typeName, r.schema)),
        ...this.definition.dataSources.flatMap((d) => checkSchema(`data ${d.typeName}`, d.schema)),
      ];
      for (const problem of problems) diags.error('Invalid provider schema', `${problem}. This is a bug in the provider.`);
      this.schemaResponse = {
        provider: toProtoSchema(this.definition.schema),
        resource_schemas: Object.fromEntries(this.definition.resources.map((r) => [r.typeName, toProtoSchema(r.schema)])),
        data_source_schemas: Object.fromEntries(this.definition.dataSources.map((d) => [d.typeName, toProtoSchema(d.schema)])),
        functions: {},
        ephemeral_resource_schemas: {},
        diagnostics: diags.all().map(toProtoDiagnostic),
        server_capabilities: SERVER_CAPABILITIES,
      };
    }
    return this.schemaResponse;
  }

  // ------------------------------------------------------------------------------------------
  // Validation, upgrade, configuration

  private validateProviderConfig(request: ProtoMessage): Promise<ProtoMessage> {
    const schema = this.definition.schema;
    return this.run(`provider.${this.definition.typeName}`, 'validate', schema, async (diags) => {
      const config = this.decodeObject(request.config as DynamicValue, schema, diags, 'config');
      if (config) this.definition.validate?.(config, diags);
      return {};
    });
  }

  private validateResourceConfig(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    return this.run(String(request.type_name), 'validate', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      const config = this.decodeObject(request.config as DynamicValue, found.schema, diags, 'config');
      if (config) found.validate?.(config, diags);
      return {};
    });
  }

  private validateDataResourceConfig(request: ProtoMessage): Promise<ProtoMessage> {
    const dataSource = this.dataSources.get(String(request.type_name));
    return this.run(String(request.type_name), 'validate', dataSource?.schema, async (diags) => {
      const found = this.requireDataSource(request.type_name, diags);
      const config = this.decodeObject(request.config as DynamicValue, found.schema, diags, 'config');
      if (config) found.validate?.(config, diags);
      return {};
    });
  }

  private upgradeResourceState(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    return this.run(String(request.type_name), 'upgradeState', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      const version = Number(request.version ?? 0);
      const schemaVersion = found.schema.version ?? 0;
      if (version > schemaVersion) {
        diags.error(
          'Resource state from a newer provider',
          `The state of this ${found.typeName} was written with schema version ${version}, but this provider knows ` +
            `only versions up to ${schemaVersion}. Use the provider version that wrote the state, or a newer one.`,
        );
        throw new Abort();
      }
      const raw = request.raw_state as { json?: Buffer; flatmap?: Record<string, string> } | undefined;
      if (!raw?.json || raw.json.length === 0) {
        diags.error(
          'Unsupported resource state format',
          `The state of this ${found.typeName} is not in JSON form (legacy flatmap state). Remove it from state and import it again.`,
        );
        throw new Abort();
      }
      let value: TerraformValue;
      try {
        value = decodeJsonValue(JSON.parse(raw.json.toString('utf8')), schemaObjectType(found.schema));
      } catch (error) {
        diags.error(
          'Unreadable resource state',
          `The stored state of this ${found.typeName} does not match its schema: ${(error as Error).message}.`,
        );
        throw new Abort();
      }
      return { upgraded_state: this.encode(value as ObjectValue | null, found.schema, diags, 'upgraded state') };
    });
  }

  private configureProvider(request: ProtoMessage): Promise<ProtoMessage> {
    const schema = this.definition.schema;
    return this.run(`provider.${this.definition.typeName}`, 'configure', schema, async (diags) => {
      const config = this.decodeObject(request.config as DynamicValue, schema, diags, 'config');
      if (!config) throw new Abort();
      this.logger.debug('configuring provider', { terraform_version: request.terraform_version });
      const context = await this.definition.configure(config, diags, this.providerLogger);
      if (!diags.hasErrors()) {
        this.context = context;
        this.configured = true;
      }
      return {};
    });
  }

  // ------------------------------------------------------------------------------------------
  // Managed resources

  private readResource(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    const privateBytes = request.private as Buffer | undefined;
    return this.run(String(request.type_name), 'read', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      const state = this.decodeObject(request.current_state as DynamicValue, found.schema, diags, 'current state');
      if (state === null) return { new_state: this.encode(null, found.schema, diags, 'state'), private: privateBytes };
      const ctx = this.requireContext(diags);
      const newState = await found.read(ctx, { state }, diags);
      if (diags.hasErrors()) return { new_state: request.current_state, private: privateBytes };
      const checked = newState === null ? null : this.checkKnown(newState, found, diags, 'read');
      return { new_state: this.encode(checked, found.schema, diags, 'state'), private: privateBytes };
    });
  }

  private planResourceChange(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    return this.run(String(request.type_name), 'plan', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      const prior = this.decodeObject(request.prior_state as DynamicValue, found.schema, diags, 'prior state');
      const proposed = this.decodeObject(request.proposed_new_state as DynamicValue, found.schema, diags, 'proposed state');
      const config = this.decodeObject(request.config as DynamicValue, found.schema, diags, 'config');
      const plan = planChange(found.schema, prior, proposed, config);
      let plannedState = plan.plannedState;
      const requiresReplace = [...plan.requiresReplace];
      if (plannedState !== null && found.modifyPlan) {
        const modification: PlanModification = { plannedState, requiresReplace: [] };
        await found.modifyPlan(
          this.requireContext(diags),
          { config: config ?? {}, priorState: prior, plannedState: { ...plannedState } },
          modification,
          diags,
        );
        plannedState = modification.plannedState;
        requiresReplace.push(...modification.requiresReplace);
      }
      return {
        planned_state: this.encode(plannedState, found.schema, diags, 'planned state'),
        requires_replace: uniquePaths(requiresReplace).map((path) => toProtoAttributePath(toPathSteps(path, found.schema))),
        planned_private: request.prior_private,
      };
    });
  }

  private applyResourceChange(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    const privateBytes = request.planned_private as Buffer | undefined;
    return this.run(String(request.type_name), 'apply', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      const prior = this.decodeObject(request.prior_state as DynamicValue, found.schema, diags, 'prior state');
      const planned = this.decodeObject(request.planned_state as DynamicValue, found.schema, diags, 'planned state');
      const config = this.decodeObject(request.config as DynamicValue, found.schema, diags, 'config') ?? {};
      const ctx = this.requireContext(diags);
      let newState: ObjectValue | null;
      if (planned === null) {
        if (prior === null) return { new_state: this.encode(null, found.schema, diags, 'state') };
        await found.delete(ctx, { priorState: prior }, diags);
        // A failed delete leaves the object in place: keep it in state.
        newState = diags.hasErrors() ? prior : null;
      } else if (prior === null) {
        newState = await found.create(ctx, { plannedState: planned, config }, diags);
        if (newState === null && !diags.hasErrors()) {
          diags.error('Provider returned no state', `${found.typeName}.create returned nothing. This is a bug in the provider.`);
        }
        if (newState !== null) newState = this.checkKnown(newState, found, diags, 'create');
      } else {
        newState = await found.update(ctx, { plannedState: planned, priorState: prior, config }, diags);
        if (newState === null) {
          if (!diags.hasErrors()) {
            diags.error('Provider returned no state', `${found.typeName}.update returned nothing. This is a bug in the provider.`);
          }
          newState = prior; // the object still exists as it was
        } else {
          newState = this.checkKnown(newState, found, diags, 'update');
        }
      }
      return { new_state: this.encode(newState, found.schema, diags, 'new state'), private: privateBytes };
    });
  }

  private importResourceState(request: ProtoMessage): Promise<ProtoMessage> {
    const resource = this.resources.get(String(request.type_name));
    return this.run(String(request.type_name), 'import', resource?.schema, async (diags) => {
      const found = this.requireResource(request.type_name, diags);
      if (!found.importState) {
        diags.error('Resource import not supported', `${found.typeName} cannot be imported: declare it in configuration instead.`);
        throw new Abort();
      }
      const state = await found.importState(this.requireContext(diags), { id: String(request.id ?? '') }, diags);
      if (diags.hasErrors()) return { imported_resources: [] };
      if (state === null) {
        diags.error('Cannot import non-existent remote object', `No ${found.typeName} exists with the id ${JSON.stringify(request.id)}.`);
        return { imported_resources: [] };
      }
      const checked = this.checkKnown(state, found, diags, 'importState');
      return {
        imported_resources: [{ type_name: found.typeName, state: this.encode(checked, found.schema, diags, 'imported state') }],
      };
    });
  }

  // ------------------------------------------------------------------------------------------
  // Data sources

  private readDataSource(request: ProtoMessage): Promise<ProtoMessage> {
    const dataSource = this.dataSources.get(String(request.type_name));
    return this.run(String(request.type_name), 'read', dataSource?.schema, async (diags) => {
      const found = this.requireDataSource(request.type_name, diags);
      const config = this.decodeObject(request.config as DynamicValue, found.schema, diags, 'config') ?? {};
      const state = await found.read(this.requireContext(diags), { config }, diags);
      if (diags.hasErrors()) return {};
      if (state === null) {
        diags.error('Data source returned no state', `${found.typeName}.read returned nothing. This is a bug in the provider.`);
        return {};
      }
      const checked = this.checkKnown(state, found, diags, 'read');
      return { state: this.encode(checked, found.schema, diags, 'state') };
    });
  }

  // ------------------------------------------------------------------------------------------
  // Helpers

  /**
   * Runs one RPC body with a diagnostics collector: an {@link Abort} ends it with the collected
   * diagnostics, any other exception is a provider bug reported as an internal error.
   */
  private async run(
    typeName: string,
    operation: string,
    schema: Schema | undefined,
    body: (diags: DiagnosticsCollector) => Promise<ProtoMessage>,
  ): Promise<ProtoMessage> {
    const diags = new DiagnosticsCollector(schema);
    const started = Date.now();
    let response: ProtoMessage = {};
    try {
      response = await body(diags);
    } catch (error) {
      if (!(error instanceof Abort)) {
        const message = (error as Error)?.message ?? String(error);
        this.logger.error(`internal error in ${typeName}.${operation}`, { error: (error as Error)?.stack ?? message });
        diags.error(
          `internal error in ${typeName}.${operation}: ${message}`,
          'This is a bug in the provider; the provider log (TF_LOG_PROVIDER=error) has the details. Please report it.',
        );
      }
    }
    if (this.logger.enabled('debug')) {
      this.logger.debug(`${typeName}.${operation} done`, { duration_ms: Date.now() - started, diagnostics: diags.all().length });
    }
    return { ...response, diagnostics: diags.all().map(toProtoDiagnostic) };
  }

  private unsupported(detail: string): ProtoMessage {
    return { diagnostics: [toProtoDiagnostic({ severity: 'error', summary: 'Not supported by this provider', detail })] };
  }

  private requireResource(typeName: unknown, diags: DiagnosticsCollector): Resource<TContext> {
    const resource = this.resources.get(String(typeName));
    if (!resource) {
      diags.error('Unknown resource type', `This provider has no resource type ${JSON.stringify(typeName)}.`);
      throw new Abort();
    }
    return resource;
  }

  private requireDataSource(typeName: unknown, diags: DiagnosticsCollector): DataSource<TContext> {
    const dataSource = this.dataSources.get(String(typeName));
    if (!dataSource) {
      diags.error('Unknown data source type', `This provider has no data source ${JSON.stringify(typeName)}.`);
      throw new Abort();
    }
    return dataSource;
  }

  private requireContext(diags: DiagnosticsCollector): TContext {
    if (!this.configured) {
      diags.error(
        'Provider not configured',
        `The ${this.definition.typeName} provider was used before a successful configuration; see the errors of its provider block.`,
      );
      throw new Abort();
    }
    return this.context as TContext;
  }

  private decodeObject(value: DynamicValue, schema: Schema, diags: DiagnosticsCollector, what: string): ObjectValue | null {
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

  private encode(value: ObjectValue | null, schema: Schema, diags: DiagnosticsCollector, what: string): { msgpack: Buffer } {
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

  /** Checks that a state the provider returned has no unknown left (Terraform would reject it). */
  private checkKnown(state: ObjectValue, owner: { typeName: string; schema: Schema }, diags: DiagnosticsCollector, operation: string): ObjectValue {
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
}
