/**
 * Diagnostics as the provider reports them before encoding: severity, summary, detail and an
 * optional path to the attribute at fault, which Terraform renders against the user's source
 * line. Their protobuf form is written by `framework/toproto/diagnostics.ts`.
 */

/** One step of an attribute path. */
export type PathStep =
  | { readonly attribute: string }
  | { readonly key: string }
  | { readonly index: number };

/** A diagnostic before encoding. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail?: string;
  readonly path?: readonly PathStep[];
}
