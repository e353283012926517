/**
 * The resource contract of the provider framework. Resources and data sources implement these
 * interfaces with plain JavaScript values; the framework (the runtime that serves them) handles
 * protobuf, msgpack, schemas and the plan/apply choreography of Terraform's plugin protocol.
 *
 * Values: a Terraform value is `null`, {@link UNKNOWN}, a string, a number, a boolean, an array
 * (lists and sets), or a plain object (maps and objects). Objects of a resource always carry every
 * schema attribute (null when absent).
 */
import type { TerraformType, TerraformValue } from '../protocol/terraform-type';
import type { EphemeralResource } from './ephemeral';
import type { ProviderFunction } from './function';

/** A Terraform type, written as Terraform's JSON type constraint (the protocol's {@link TerraformType}). */
export type AttributeType = TerraformType;

/** One attribute of a schema. */
export interface AttributeSchema {
  /** Terraform type of the attribute. */
  readonly type: AttributeType;
  /** What the attribute is, in Markdown; rendered into the gRPC schema, schema JSON and docs. */
  readonly description: string;
  /** The user must set it. */
  readonly required?: boolean;
  /** The user may set it. */
  readonly optional?: boolean;
  /** The provider may set it (alone: read-only; with optional: defaulted by the provider). */
  readonly computed?: boolean;
  /** Terraform hides the value in plan output and marks it sensitive in state. */
  readonly sensitive?: boolean;
  /** A change of this attribute replaces the resource instead of updating it. */
  readonly requiresReplace?: boolean;
  /**
   * For computed attributes: keep the prior state's value when planning an update instead of
   * planning it unknown (ids, for example, never change in place).
   */
  readonly useStateForUnknown?: boolean;
  /**
   * Write-only (Terraform 1.11 and later; managed resources only): the value is in the
   * configuration that the resource's `validate`, `modifyPlan`, `create` and `update` receive, and
   * never in a plan or state (the framework sets it null in every state it returns). Needs
   * `required` or `optional`; excludes `computed`, `requiresReplace`, `useStateForUnknown` and set
   * types. Terraform cannot tell when the value changed, so pair it with a version attribute that
   * the user bumps to send a new value (`secret_wo` with `secret_wo_version`).
   */
  readonly writeOnly?: boolean;
}

/** The schema of a provider, resource or data source. */
export interface Schema {
  /** Schema version recorded in state; bump it together with an upgrade. */
  readonly version?: number;
  /** What the block is, in Markdown. */
  readonly description: string;
  /** Attributes by name. */
  readonly attributes: { readonly [name: string]: AttributeSchema };
}

/** A decoded Terraform value (the protocol's {@link TerraformValue}). */
export type Value = TerraformValue;

/** An object value with every attribute of a schema. */
export type ObjectValue = { [name: string]: Value };

/** A path to an attribute: names and, inside collections, keys or indexes. */
export type AttributePath = ReadonlyArray<string | number>;

/** Collects diagnostics for one call; errors fail the call, warnings are shown. */
export interface Diagnostics {
  /** Adds an error. `summary` is short; `detail` says what happened and what to do. */
  error(summary: string, detail?: string, path?: AttributePath): void;
  /** Adds a warning. */
  warning(summary: string, detail?: string, path?: AttributePath): void;
  /** True once an error was added. */
  hasErrors(): boolean;
}

/** Writes structured logs (hclog-style JSON on stderr); never pass secrets. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Provider-private data of one resource object: JSON values by key, kept by Terraform beside the
 * state and never shown to users (see private-state.ts for how Terraform passes it between calls).
 */
export interface PrivateData {
  /** The value stored under `key`, or undefined. */
  get(key: string): unknown;
  /** Stores a JSON value under `key`; undefined removes the key. */
  set(key: string, value: unknown): void;
}

/** What a plan modification may change. */
export interface PlanModification {
  /** The planned state; the hook may replace values (for example fill a default). */
  plannedState: ObjectValue;
  /** Extra attribute paths whose change forces replacement. */
  requiresReplace: AttributePath[];
  /**
   * The planned private data: starts as the prior object's, and is what the apply of this plan
   * receives (also the destroy half of a replacement, which gets the replacing create's).
   */
  readonly private: PrivateData;
}

/** What the plan of a destroy may set. */
export interface DestroyPlanModification {
  /** The planned private data the destroy's apply receives; starts as the prior object's. */
  readonly private: PrivateData;
}

/**
 * How a state written with an earlier schema version becomes a state of the current schema: the
 * stored JSON is decoded with `priorSchema` (that version's attribute types), then `upgrade` turns
 * it into a value of the current schema. Each upgrade goes straight to the current version.
 */
export interface StateUpgrade {
  /** The schema of the version this upgrade starts from (its attributes decode the stored state). */
  readonly priorSchema: Schema;
  /**
   * Returns the state in the current schema (every current attribute present), or null with an
   * error when it cannot be upgraded. Runs before the provider is configured: no remote calls.
   */
  upgrade(priorState: ObjectValue, diags: Diagnostics): ObjectValue | null;
}

/**
 * A managed resource. `TContext` is what the provider's `configure` returns (for orgadmin: the SDK
 * client and the default realm). Methods report problems through `diags`; a thrown exception is a
 * bug and becomes a generic error diagnostic.
 *
 * Every `req` carries the call's `signal` (optional in the type so that resources and tests that
 * build requests themselves keep working): it aborts when Terraform stops the provider
 * (StopProvider, e.g. after Ctrl-C) or cancels the call. Pass it on to HTTP requests; a method
 * that gives up because of it may throw the abort error, which is reported as the stop it is.
 * A create or update that fails after changing something should still return the state it
 * reached, with the error: the framework sends it back and Terraform keeps it.
 *
 * Every call that concerns one object also carries its {@link PrivateData} as `req.private`:
 * read, create, update and import may change it (it is kept with the new state); delete receives
 * the planned private data of its plan.
 */
export interface Resource<TContext> {
  /** Full type name, e.g. `orgadmin_organization`. */
  readonly typeName: string;
  /** Schema of the resource. */
  readonly schema: Schema;
  /**
   * Upgrades of states written with an earlier `schema.version`, by the version they start from.
   * A state of a version without an entry here (below the current one) is refused with an error.
   */
  readonly stateUpgrades?: { readonly [fromVersion: number]: StateUpgrade };
  /** Static checks of the configuration (values may be unknown). Optional. */
  validate?(config: ObjectValue, diags: Diagnostics): void;
  /**
   * Adjusts the framework's plan (defaults, extra replacement paths). Called for create and
   * update, not destroy. `priorState` is null on create. Optional.
   */
  modifyPlan?(
    ctx: TContext,
    req: { config: ObjectValue; priorState: ObjectValue | null; plannedState: ObjectValue; signal?: AbortSignal },
    plan: PlanModification,
    diags: Diagnostics,
  ): Promise<void> | void;
  /**
   * Checks a planned destroy and sets the private data its apply will receive (Terraform plans
   * destroys through the provider). Errors fail the plan. Optional.
   */
  planDestroy?(
    ctx: TContext,
    req: { priorState: ObjectValue; signal?: AbortSignal },
    plan: DestroyPlanModification,
    diags: Diagnostics,
  ): Promise<void> | void;
  /** Creates the remote object; returns the new state (no unknowns left), or null on error. */
  create(
    ctx: TContext,
    req: { plannedState: ObjectValue; config: ObjectValue; private?: PrivateData; signal?: AbortSignal },
    diags: Diagnostics,
  ): Promise<ObjectValue | null>;
  /** Reads the remote object; returns null when it is gone (Terraform then plans a create). */
  read(ctx: TContext, req: { state: ObjectValue; private?: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<ObjectValue | null>;
  /** Updates in place; returns the new state. */
  update(
    ctx: TContext,
    req: { plannedState: ObjectValue; priorState: ObjectValue; config: ObjectValue; private?: PrivateData; signal?: AbortSignal },
    diags: Diagnostics,
  ): Promise<ObjectValue | null>;
  /** Deletes the remote object; an already-gone object is not an error. */
  delete(ctx: TContext, req: { priorState: ObjectValue; private?: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<void>;
  /**
   * Turns an import id into a state the framework then reads. Optional: without it, import is
   * refused with a diagnostic.
   */
  importState?(ctx: TContext, req: { id: string; private?: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<ObjectValue | null>;
}

/** A data source. */
export interface DataSource<TContext> {
  /** Full type name, e.g. `orgadmin_user`. */
  readonly typeName: string;
  /** Schema of the data source. */
  readonly schema: Schema;
  /** Static checks of the configuration. Optional. */
  validate?(config: ObjectValue, diags: Diagnostics): void;
  /** Reads; returns the full state or null on error. `req.signal` as for {@link Resource}. */
  read(ctx: TContext, req: { config: ObjectValue; signal?: AbortSignal }, diags: Diagnostics): Promise<ObjectValue | null>;
}

/** A whole provider: its configuration and what it serves. */
export interface ProviderDefinition<TContext> {
  /** Provider type name, e.g. `orgadmin`. */
  readonly typeName: string;
  /** Schema of the provider block. */
  readonly schema: Schema;
  /** Static checks of the provider configuration. Optional. */
  validate?(config: ObjectValue, diags: Diagnostics): void;
  /**
   * Builds the context from the provider configuration (called once per process). Returns
   * undefined with error diagnostics when the configuration cannot work.
   */
  configure(config: ObjectValue, diags: Diagnostics, logger: Logger): Promise<TContext | undefined>;
  /** Managed resources. */
  readonly resources: ReadonlyArray<Resource<TContext>>;
  /** Data sources. */
  readonly dataSources: ReadonlyArray<DataSource<TContext>>;
  /** Ephemeral resources (Terraform 1.10 and later). Optional. */
  readonly ephemeralResources?: ReadonlyArray<EphemeralResource<TContext>>;
  /** Provider-defined functions (Terraform 1.8 and later), called as `provider::<type>::<name>(…)`. Optional. */
  readonly functions?: ReadonlyArray<ProviderFunction>;
  /** Called when Terraform stops the plugin (close HTTP connections). Optional. */
  close?(ctx: TContext | undefined): Promise<void>;
}
