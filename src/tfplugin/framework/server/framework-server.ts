/**
 * The framework's {@link ProviderServer}: serves a {@link ProviderDefinition}'s resources, data
 * sources, ephemeral resources and functions. Each method delegates to its area (`provider.ts`,
 * `resource.ts`, `data-source.ts`, `ephemeral-resource.ts`, `function.ts`); this class only holds
 * what they share.
 */
import type { JsonLogger } from '../../protocol/log';
import type {
  ApplyResourceChangeRequest,
  ApplyResourceChangeResponse,
  CallFunctionRequest,
  CallFunctionResponse,
  ConfigureProviderRequest,
  EphemeralResourceRequest,
  GetFunctionsResponse,
  GetMetadataResponse,
  GetProviderSchemaResponse,
  ImportResourceStateRequest,
  ImportResourceStateResponse,
  OpenEphemeralResourceRequest,
  OpenEphemeralResourceResponse,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  ProviderRequest,
  ProviderResponse,
  ProviderServer,
  ReadDataSourceRequest,
  ReadDataSourceResponse,
  ReadResourceRequest,
  ReadResourceResponse,
  RenewEphemeralResourceResponse,
  StopProviderResponse,
  UpgradeResourceStateRequest,
  UpgradeResourceStateResponse,
  ValidateConfigRequest,
  ValidateProviderConfigRequest,
} from '../provider-server';
import type { StopController } from '../stop';
import type { ProviderDefinition } from '../types';
import { createScope, type ServerScope } from './call';
import * as dataSource from './data-source';
import * as ephemeral from './ephemeral-resource';
import * as fn from './function';
import * as provider from './provider';
import * as resource from './resource';

/** Serves one provider definition. */
export class FrameworkServer<TContext> implements ProviderServer {
  private readonly scope: ServerScope<TContext>;
  private schema: GetProviderSchemaResponse | undefined;

  /**
   * @param definition the provider, its resources and data sources
   * @param logger the process's hclog-style logger; also handed to the provider as its logger
   * @param stop the process's stop switch, tripped by {@link stopProvider}
   */
  constructor(definition: ProviderDefinition<TContext>, logger: JsonLogger, stop: StopController) {
    this.scope = createScope(definition, logger, stop);
  }

  /** The configured context (undefined before ConfigureProvider or when it failed). */
  get providerContext(): TContext | undefined {
    return this.scope.configured?.context;
  }

  /** {@inheritDoc ProviderServer.getMetadata} */
  async getMetadata(): Promise<GetMetadataResponse> {
    return provider.getMetadata(this.scope);
  }

  /** {@inheritDoc ProviderServer.getProviderSchema} */
  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    if (this.scope.stop.stopping) return provider.getProviderSchema(this.scope);
    // Built once per process: three processes per command each ask for it.
    this.schema ??= provider.getProviderSchema(this.scope);
    return this.schema;
  }

  /** {@inheritDoc ProviderServer.validateProviderConfig} */
  validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ProviderResponse> {
    return provider.validateProviderConfig(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.configureProvider} */
  configureProvider(req: ConfigureProviderRequest): Promise<ProviderResponse> {
    return provider.configureProvider(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.stopProvider} */
  async stopProvider(_req: ProviderRequest): Promise<StopProviderResponse> {
    this.scope.logger.debug('StopProvider: aborting calls in flight');
    this.scope.stop.stop();
    return { error: '' };
  }

  /** {@inheritDoc ProviderServer.validateResourceConfig} */
  validateResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse> {
    return resource.validateResourceConfig(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.upgradeResourceState} */
  upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    return resource.upgradeResourceState(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.readResource} */
  readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    return resource.readResource(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.planResourceChange} */
  planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    return resource.planResourceChange(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.applyResourceChange} */
  applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    return resource.applyResourceChange(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.importResourceState} */
  importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    return resource.importResourceState(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.validateDataResourceConfig} */
  validateDataResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse> {
    return dataSource.validateDataResourceConfig(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.readDataSource} */
  readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    return dataSource.readDataSource(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.validateEphemeralResourceConfig} */
  validateEphemeralResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse> {
    return ephemeral.validateEphemeralResourceConfig(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.openEphemeralResource} */
  openEphemeralResource(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse> {
    return ephemeral.openEphemeralResource(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.renewEphemeralResource} */
  renewEphemeralResource(req: EphemeralResourceRequest): Promise<RenewEphemeralResourceResponse> {
    return ephemeral.renewEphemeralResource(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.closeEphemeralResource} */
  closeEphemeralResource(req: EphemeralResourceRequest): Promise<ProviderResponse> {
    return ephemeral.closeEphemeralResource(this.scope, req);
  }

  /** {@inheritDoc ProviderServer.getFunctions} */
  async getFunctions(_req: ProviderRequest): Promise<GetFunctionsResponse> {
    return fn.getFunctions(this.scope);
  }

  /** {@inheritDoc ProviderServer.callFunction} */
  callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    return fn.callFunction(this.scope, req);
  }
}
