/**
 * The contract of an ephemeral resource (Terraform 1.10 and later): something Terraform opens
 * when a configuration refers to it, uses during one plan or apply, and closes again, without ever
 * writing it to a plan or state file. Credentials, tokens and links that grant access belong here.
 *
 * Terraform opens an ephemeral resource in every plan and apply that needs its value (not while
 * its configuration is still unknown), may ask the provider to renew it at the time the open
 * asked for, and closes it when nothing needs it any more. The {@link PrivateData} an open sets
 * goes to Terraform and comes back with every renew and close (as for managed resources): it is
 * what those need to find the remote object again (a lease id, a handle), never the secret itself.
 */
import type { Diagnostics, ObjectValue, PrivateData, Schema } from './types';

/** What a successful open returns. */
export interface EphemeralOpenResult {
  /** The resource's value: every schema attribute (configured ones as configured), fully known. */
  readonly result: ObjectValue;
  /** When Terraform should call `renew`, if it still uses the resource then. Optional. */
  readonly renewAt?: Date;
}

/** What a renew returns. */
export interface EphemeralRenewResult {
  /** When to renew next; without it Terraform stops renewing. */
  readonly renewAt?: Date;
}

/**
 * An ephemeral resource. Methods run on the configured provider (`TContext`) and report problems
 * through `diags`; a thrown exception is a bug. Every `req` carries the call's `signal`, as for
 * managed resources, and the object's private data: open and renew may set keys, renew and close
 * read what was set.
 */
export interface EphemeralResource<TContext> {
  /** Full type name, e.g. `orgadmin_portal_link`. */
  readonly typeName: string;
  /** Schema of the configuration and result (no write-only attributes). */
  readonly schema: Schema;
  /** Static checks of the configuration (values may be unknown). Optional. */
  validate?(config: ObjectValue, diags: Diagnostics): void;
  /** Opens the resource; returns its value, or null with an error. */
  open(ctx: TContext, req: { config: ObjectValue; private: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<EphemeralOpenResult | null>;
  /**
   * Extends the remote object's life (Terraform calls it at the open's `renewAt`). The value
   * Terraform holds cannot change. Optional: without it, a `renewAt` is a provider bug.
   */
  renew?(ctx: TContext, req: { private: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<EphemeralRenewResult>;
  /** Ends the remote object (revokes, releases). Optional: without it, closing does nothing. */
  close?(ctx: TContext, req: { private: PrivateData; signal?: AbortSignal }, diags: Diagnostics): Promise<void>;
}
