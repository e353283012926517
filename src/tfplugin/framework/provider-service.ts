/**
 * The `tfplugin6.Provider` gRPC service of a {@link ProviderDefinition}: each RPC handler only
 * converts the wire request (`fromproto/`), delegates to the typed {@link ProviderServer}
 * (`server/framework-server.ts`) and converts the answer back (`toproto/`). Resources never see
 * protobuf or msgpack.
 *
 * Every request carries one signal: it aborts when StopProvider trips the process's
 * {@link StopController} or when the call's own gRPC stream closes.
 */
import type { UnaryCall } from '../protocol/grpc-server';
import type { JsonLogger } from '../protocol/log';
import type { ProviderMethods } from '../protocol/tfplugin6';
import * as fromDataSource from './fromproto/data-source';
import * as fromEphemeral from './fromproto/ephemeral-resource';
import * as fromFunction from './fromproto/function';
import * as fromProvider from './fromproto/provider';
import * as fromResource from './fromproto/resource';
import type { ProviderServer } from './provider-server';
import { FrameworkServer } from './server/framework-server';
import { StopController } from './stop';
import * as toDataSource from './toproto/data-source';
import * as toEphemeral from './toproto/ephemeral-resource';
import * as toFunction from './toproto/function';
import { unsupported } from './toproto/diagnostics';
import * as toProvider from './toproto/provider';
import * as toResource from './toproto/resource';
import type { ProviderDefinition } from './types';

/** One RPC handler: the wire request and (from the gRPC server) the call's transport signal. */
export type ProviderHandler<M extends keyof ProviderMethods> = (
  request: ProviderMethods[M]['request'],
  call?: Partial<UnaryCall>,
) => Promise<ProviderMethods[M]['response']>;

/** Handlers of every `tfplugin6.Provider` method, ready for `GrpcServer#addService`. */
export type ProviderHandlers = { readonly [M in keyof ProviderMethods]: ProviderHandler<M> };

/** Implements the provider service for one definition. */
export class ProviderService<TContext> {
  private readonly stop = new StopController();
  private readonly server: FrameworkServer<TContext>;

  /**
   * @param definition the provider, its resources and data sources
   * @param logger the process's hclog-style logger; also handed to the provider as its logger
   */
  constructor(definition: ProviderDefinition<TContext>, logger: JsonLogger) {
    this.server = new FrameworkServer(definition, logger, this.stop);
  }

  /** The configured context (undefined before ConfigureProvider or when it failed). */
  get providerContext(): TContext | undefined {
    return this.server.providerContext;
  }

  /** The RPC handlers, ready for `GrpcServer#addService('tfplugin6.Provider', …)`. */
  handlers(): ProviderHandlers {
    const server: ProviderServer = this.server;
    // Every handler runs inside the stop switch, which gives it the call's signal (StopController.run).
    const stop = this.stop;
    const stoppable =
      <Q, A>(handle: (request: Q, signal: AbortSignal) => Promise<A>) =>
      (request: Q, call?: Partial<UnaryCall>): Promise<A> =>
        stop.run(call, (signal) => handle(request, signal));
    return {
      GetMetadata: stoppable(async (_r, signal) => toProvider.getMetadataResponse(await server.getMetadata(fromProvider.emptyRequest(signal)))),
      GetProviderSchema: stoppable(async (_r, signal) =>
        toProvider.getProviderSchemaResponse(await server.getProviderSchema(fromProvider.emptyRequest(signal))),
      ),
      ValidateProviderConfig: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(await server.validateProviderConfig(fromProvider.validateProviderConfigRequest(r, signal))),
      ),
      ConfigureProvider: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(await server.configureProvider(fromProvider.configureProviderRequest(r, signal))),
      ),
      StopProvider: stoppable(async (_r, signal) => toProvider.stopProviderResponse(await server.stopProvider(fromProvider.emptyRequest(signal)))),

      ValidateResourceConfig: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(await server.validateResourceConfig(fromResource.validateResourceConfigRequest(r, signal))),
      ),
      UpgradeResourceState: stoppable(async (r, signal) =>
        toResource.upgradeResourceStateResponse(await server.upgradeResourceState(fromResource.upgradeResourceStateRequest(r, signal))),
      ),
      ReadResource: stoppable(async (r, signal) => toResource.readResourceResponse(await server.readResource(fromResource.readResourceRequest(r, signal)))),
      PlanResourceChange: stoppable(async (r, signal) =>
        toResource.planResourceChangeResponse(await server.planResourceChange(fromResource.planResourceChangeRequest(r, signal))),
      ),
      ApplyResourceChange: stoppable(async (r, signal) =>
        toResource.applyResourceChangeResponse(await server.applyResourceChange(fromResource.applyResourceChangeRequest(r, signal))),
      ),
      ImportResourceState: stoppable(async (r, signal) =>
        toResource.importResourceStateResponse(await server.importResourceState(fromResource.importResourceStateRequest(r, signal))),
      ),

      ValidateDataResourceConfig: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(await server.validateDataResourceConfig(fromDataSource.validateDataResourceConfigRequest(r, signal))),
      ),
      ReadDataSource: stoppable(async (r, signal) =>
        toDataSource.readDataSourceResponse(await server.readDataSource(fromDataSource.readDataSourceRequest(r, signal))),
      ),

      ValidateEphemeralResourceConfig: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(
          await server.validateEphemeralResourceConfig(fromEphemeral.validateEphemeralResourceConfigRequest(r, signal)),
        ),
      ),
      OpenEphemeralResource: stoppable(async (r, signal) =>
        toEphemeral.openEphemeralResourceResponse(await server.openEphemeralResource(fromEphemeral.openEphemeralResourceRequest(r, signal))),
      ),
      RenewEphemeralResource: stoppable(async (r, signal) =>
        toEphemeral.renewEphemeralResourceResponse(await server.renewEphemeralResource(fromEphemeral.ephemeralResourceRequest(r, signal))),
      ),
      CloseEphemeralResource: stoppable(async (r, signal) =>
        toProvider.diagnosticsResponse(await server.closeEphemeralResource(fromEphemeral.ephemeralResourceRequest(r, signal))),
      ),

      GetFunctions: stoppable(async (_r, signal) => toFunction.getFunctionsResponse(await server.getFunctions(fromProvider.emptyRequest(signal)))),
      CallFunction: stoppable(async (r, signal) => toFunction.callFunctionResponse(await server.callFunction(fromFunction.callFunctionRequest(r, signal)))),

      // What this provider does not offer is refused at the edge; the server never sees it.
      GetResourceIdentitySchemas: async () => ({ identity_schemas: {}, diagnostics: [] }),
      UpgradeResourceIdentity: async (r) => unsupported(`${r.type_name ?? ''} has no resource identity`),
      MoveResourceState: async (r) =>
        unsupported(`moving ${r.source_type_name ?? ''} to ${r.target_type_name ?? ''} is not supported`),
    };
  }
}
