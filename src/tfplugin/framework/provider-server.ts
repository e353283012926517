/**
 * The typed provider server: one method per `tfplugin6.Provider` RPC this provider implements,
 * with requests and responses as plain TypeScript values instead of protobuf messages (the shape
 * of terraform-plugin-go's `tfprotov6.ProviderServer`). `fromproto/` builds these requests from
 * the wire messages, `toproto/` turns the responses back; the framework's implementation is
 * `server/framework-server.ts`.
 *
 * Values stay opaque here ({@link DynamicValue}): decoding them needs the resource's schema,
 * which is the implementation's business, not the protocol edge's.
 */
import type { Diagnostic, PathStep } from '../protocol/diagnostics';
import type { ProviderFunction } from './function';
import type { Schema } from './types';

/** A Terraform value as the protocol carries it: msgpack (usually) or JSON bytes. */
export interface DynamicValue {
  readonly msgpack?: Buffer;
  readonly json?: Buffer;
}

/** What every request carries. */
export interface ProviderRequest {
  /**
   * Aborts when Terraform stops the provider (`StopProvider`) or cancels this call (its gRPC
   * stream closes). Passed on to resources and data sources as `req.signal`.
   */
  readonly signal: AbortSignal;
}

/** What every response carries. */
export interface ProviderResponse {
  /** Errors and warnings for the user. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Optional protocol features this provider supports. */
export interface ServerCapabilities {
  /** PlanResourceChange is called for destroy too. */
  readonly planDestroy: boolean;
  /** Terraform may skip GetProviderSchema and use a cached schema. */
  readonly getProviderSchemaOptional: boolean;
  /** MoveResourceState is implemented. */
  readonly moveResourceState: boolean;
}

/** Optional protocol features Terraform supports, as it tells each call that may use them. */
export interface ClientCapabilities {
  /** Terraform accepts deferred answers (`-allow-deferral`). */
  readonly deferralAllowed: boolean;
  /** Terraform keeps write-only attributes out of plans and state (1.11 and later). */
  readonly writeOnlyAttributesAllowed: boolean;
}

/** A function's signature: everything of a {@link ProviderFunction} but its code. */
export type FunctionSignature = Omit<ProviderFunction, 'run'>;

/** GetMetadata answer: which types the provider serves. */
export interface GetMetadataResponse extends ProviderResponse {
  readonly serverCapabilities: ServerCapabilities;
  readonly resources: readonly string[];
  readonly dataSources: readonly string[];
  readonly ephemeralResources: readonly string[];
  readonly functions: readonly string[];
}

/** GetProviderSchema answer. */
export interface GetProviderSchemaResponse extends ProviderResponse {
  readonly serverCapabilities: ServerCapabilities;
  readonly provider: Schema;
  readonly resourceSchemas: { readonly [typeName: string]: Schema };
  readonly dataSourceSchemas: { readonly [typeName: string]: Schema };
  readonly ephemeralResourceSchemas: { readonly [typeName: string]: Schema };
  readonly functions: { readonly [name: string]: FunctionSignature };
}

/** ValidateProviderConfig request. */
export interface ValidateProviderConfigRequest extends ProviderRequest {
  readonly config: DynamicValue | undefined;
}

/** ConfigureProvider request. */
export interface ConfigureProviderRequest extends ProviderRequest {
  readonly terraformVersion: string;
  readonly config: DynamicValue | undefined;
}

/** StopProvider answer: an error text, empty when stopping went fine. */
export interface StopProviderResponse {
  readonly error: string;
}

/** ValidateResourceConfig, ValidateDataResourceConfig or ValidateEphemeralResourceConfig request. */
export interface ValidateConfigRequest extends ProviderRequest {
  readonly typeName: string;
  readonly config: DynamicValue | undefined;
  /** What Terraform supports (ValidateResourceConfig only; absent: an older Terraform that sends none). */
  readonly clientCapabilities?: ClientCapabilities;
}

/** State as Terraform stored it, before any upgrade. */
export interface RawState {
  /** JSON state (every Terraform ≥ 0.12 writes this). */
  readonly json?: Buffer;
  /** Legacy flatmap state. */
  readonly flatmap?: { readonly [key: string]: string };
}

/** UpgradeResourceState request. */
export interface UpgradeResourceStateRequest extends ProviderRequest {
  readonly typeName: string;
  /** The schema version the state was written with. */
  readonly version: number;
  readonly rawState: RawState | undefined;
}

/** UpgradeResourceState answer. */
export interface UpgradeResourceStateResponse extends ProviderResponse {
  readonly upgradedState?: DynamicValue;
}

/** ReadResource request. */
export interface ReadResourceRequest extends ProviderRequest {
  readonly typeName: string;
  readonly currentState: DynamicValue | undefined;
  /** Provider-private data of the state. */
  readonly private: Buffer | undefined;
}

/** ReadResource answer. */
export interface ReadResourceResponse extends ProviderResponse {
  readonly newState?: DynamicValue;
  readonly private?: Buffer;
}

/** PlanResourceChange request. */
export interface PlanResourceChangeRequest extends ProviderRequest {
  readonly typeName: string;
  readonly priorState: DynamicValue | undefined;
  readonly proposedNewState: DynamicValue | undefined;
  readonly config: DynamicValue | undefined;
  readonly priorPrivate: Buffer | undefined;
}

/** PlanResourceChange answer. */
export interface PlanResourceChangeResponse extends ProviderResponse {
  readonly plannedState?: DynamicValue;
  /** Attribute paths whose change forces replacement. */
  readonly requiresReplace: ReadonlyArray<readonly PathStep[]>;
  readonly plannedPrivate?: Buffer;
}

/** ApplyResourceChange request. */
export interface ApplyResourceChangeRequest extends ProviderRequest {
  readonly typeName: string;
  readonly priorState: DynamicValue | undefined;
  readonly plannedState: DynamicValue | undefined;
  readonly config: DynamicValue | undefined;
  readonly plannedPrivate: Buffer | undefined;
}

/** ApplyResourceChange answer. */
export interface ApplyResourceChangeResponse extends ProviderResponse {
  /** The new state; on error, whatever the resource reported (Terraform keeps partial state). */
  readonly newState?: DynamicValue;
  readonly private?: Buffer;
}

/** ImportResourceState request. */
export interface ImportResourceStateRequest extends ProviderRequest {
  readonly typeName: string;
  /** The import id the user gave. */
  readonly id: string;
}

/** One imported object. */
export interface ImportedResource {
  readonly typeName: string;
  readonly state: DynamicValue;
  /** Provider-private data of the imported object, handed to the read that follows. */
  readonly private?: Buffer;
}

/** ImportResourceState answer. */
export interface ImportResourceStateResponse extends ProviderResponse {
  readonly importedResources: readonly ImportedResource[];
}

/** ReadDataSource request. */
export interface ReadDataSourceRequest extends ProviderRequest {
  readonly typeName: string;
  readonly config: DynamicValue | undefined;
}

/** ReadDataSource answer. */
export interface ReadDataSourceResponse extends ProviderResponse {
  readonly state?: DynamicValue;
}

/** GetFunctions answer. */
export interface GetFunctionsResponse extends ProviderResponse {
  readonly functions: { readonly [name: string]: FunctionSignature };
}

/** CallFunction request. */
export interface CallFunctionRequest extends ProviderRequest {
  readonly name: string;
  /** One value per argument, in call order (variadic arguments each on their own). */
  readonly arguments: readonly DynamicValue[];
}

/** Why a function call failed: Terraform's function error, not a diagnostic. */
export interface FunctionCallError {
  readonly text: string;
  /** The 0-based position of the argument at fault, when one is. */
  readonly argument?: number;
}

/** CallFunction answer: a result or an error. */
export interface CallFunctionResponse {
  readonly result?: DynamicValue;
  readonly error?: FunctionCallError;
}

/** OpenEphemeralResource request. */
export interface OpenEphemeralResourceRequest extends ProviderRequest {
  readonly typeName: string;
  readonly config: DynamicValue | undefined;
  readonly clientCapabilities?: ClientCapabilities;
}

/** OpenEphemeralResource answer. */
export interface OpenEphemeralResourceResponse extends ProviderResponse {
  readonly result?: DynamicValue;
  readonly renewAt?: Date;
  readonly private?: Buffer;
}

/** RenewEphemeralResource or CloseEphemeralResource request. */
export interface EphemeralResourceRequest extends ProviderRequest {
  readonly typeName: string;
  /** The private data of the open (or the last renew). */
  readonly private: Buffer | undefined;
}

/** RenewEphemeralResource answer. */
export interface RenewEphemeralResourceResponse extends ProviderResponse {
  readonly renewAt?: Date;
  readonly private?: Buffer;
}

/**
 * The RPCs of `tfplugin6.Provider` that this provider implements. Requests carry an
 * {@link ProviderRequest.signal}; errors for the user are diagnostics (function errors for
 * CallFunction), never exceptions. (Resource identity and moves are not offered; the protocol
 * edge answers those itself.)
 */
export interface ProviderServer {
  getMetadata(req: ProviderRequest): Promise<GetMetadataResponse>;
  getProviderSchema(req: ProviderRequest): Promise<GetProviderSchemaResponse>;
  validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ProviderResponse>;
  configureProvider(req: ConfigureProviderRequest): Promise<ProviderResponse>;
  /** Aborts every call in flight and refuses new ones; answers at once. */
  stopProvider(req: ProviderRequest): Promise<StopProviderResponse>;
  validateResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse>;
  upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse>;
  readResource(req: ReadResourceRequest): Promise<ReadResourceResponse>;
  planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse>;
  applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse>;
  importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse>;
  validateDataResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse>;
  readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse>;
  validateEphemeralResourceConfig(req: ValidateConfigRequest): Promise<ProviderResponse>;
  openEphemeralResource(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse>;
  renewEphemeralResource(req: EphemeralResourceRequest): Promise<RenewEphemeralResourceResponse>;
  closeEphemeralResource(req: EphemeralResourceRequest): Promise<ProviderResponse>;
  getFunctions(req: ProviderRequest): Promise<GetFunctionsResponse>;
  callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse>;
}
