/** The provider-level calls: metadata, schema, provider configuration. */
import { DiagnosticsCollector } from '../diagnostics';
import type {
  ConfigureProviderRequest,
  GetMetadataResponse,
  GetProviderSchemaResponse,
  ProviderResponse,
  ServerCapabilities,
  ValidateProviderConfigRequest,
} from '../provider-server';
import { checkSchema, checkStateUpgrades } from '../schema';
import { Abort, runCall, stoppingDiagnostic, type ServerScope } from './call';
import { functionProblems, functionSignatures } from './function';
import { decodeObject } from './values';

/**
 * The protocol features this provider offers. `getProviderSchemaOptional`: the schema never
 * changes within one Terraform command, and no call here depends on GetProviderSchema having come
 * first, so Terraform may answer it from the schema its first start of the provider returned. It
 * then skips the call in the later starts of the command (validate, plan, apply), which otherwise
 * each build and encode the whole schema again.
 */
const SERVER_CAPABILITIES: ServerCapabilities = { planDestroy: true, getProviderSchemaOptional: true, moveResourceState: false };

/** Diagnostics of calls that need no collector: refused once the provider stops. */
function refusedWhenStopping<TContext>(scope: ServerScope<TContext>): GetMetadataResponse['diagnostics'] {
  return scope.stop.stopping ? [stoppingDiagnostic()] : [];
}

/** GetMetadata: the types this provider serves. */
export function getMetadata<TContext>(scope: ServerScope<TContext>): GetMetadataResponse {
  return {
    serverCapabilities: SERVER_CAPABILITIES,
    diagnostics: refusedWhenStopping(scope),
    resources: [...scope.resources.keys()],
    dataSources: [...scope.dataSources.keys()],
    ephemeralResources: [...scope.ephemeralResources.keys()],
    functions: [...scope.functions.keys()],
  };
}

/**
 * GetProviderSchema: the schemas, with an error for each problem of a schema definition (a
 * provider bug that would otherwise surface as a confusing Terraform error later).
 */
export function getProviderSchema<TContext>(scope: ServerScope<TContext>): GetProviderSchemaResponse {
  const { definition } = scope;
  const diags = new DiagnosticsCollector();
  const problems = [
    ...checkSchema(`provider ${definition.typeName}`, definition.schema),
    ...definition.resources.flatMap((r) => [...checkSchema(r.typeName, r.schema, true), ...checkStateUpgrades(r.typeName, r.schema, r.stateUpgrades)]),
    ...definition.dataSources.flatMap((d) => checkSchema(`data ${d.typeName}`, d.schema)),
    ...[...scope.ephemeralResources.values()].flatMap((e) => checkSchema(`ephemeral ${e.typeName}`, e.schema)),
    ...[...scope.functions.values()].flatMap(functionProblems),
  ];
  for (const problem of problems) diags.error('Invalid provider schema', `${problem}. This is a bug in the provider.`);
  return {
    serverCapabilities: SERVER_CAPABILITIES,
    provider: definition.schema,
    resourceSchemas: Object.fromEntries(definition.resources.map((r) => [r.typeName, r.schema])),
    dataSourceSchemas: Object.fromEntries(definition.dataSources.map((d) => [d.typeName, d.schema])),
    ephemeralResourceSchemas: Object.fromEntries([...scope.ephemeralResources.values()].map((e) => [e.typeName, e.schema])),
    functions: functionSignatures(scope),
    diagnostics: [...refusedWhenStopping(scope), ...diags.all()],
  };
}

/** ValidateProviderConfig: the provider's static checks of its block. */
export function validateProviderConfig<TContext>(scope: ServerScope<TContext>, req: ValidateProviderConfigRequest): Promise<ProviderResponse> {
  const { definition } = scope;
  const info = { typeName: `provider.${definition.typeName}`, operation: 'validate', schema: definition.schema, signal: req.signal };
  return runCall<ProviderResponse, TContext>(scope, info, {}, async (diags) => {
    const config = decodeObject(req.config, definition.schema, diags, 'config');
    if (config) definition.validate?.(config, diags);
    return {};
  });
}

/** ConfigureProvider: builds the context every later call uses; stored only when it succeeded. */
export function configureProvider<TContext>(scope: ServerScope<TContext>, req: ConfigureProviderRequest): Promise<ProviderResponse> {
  const { definition } = scope;
  const info = { typeName: `provider.${definition.typeName}`, operation: 'configure', schema: definition.schema, signal: req.signal };
  return runCall<ProviderResponse, TContext>(scope, info, {}, async (diags) => {
    const config = decodeObject(req.config, definition.schema, diags, 'config');
    if (!config) throw new Abort();
    scope.logger.debug('configuring provider', { terraform_version: req.terraformVersion });
    const context = await definition.configure(config, diags, scope.logger);
    if (!diags.hasErrors()) scope.configured = { context: context as TContext };
    return {};
  });
}
