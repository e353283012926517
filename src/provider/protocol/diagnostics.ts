/**
 * Diagnostics as the protocol carries them: severity, summary, detail and an optional path to
 * the attribute at fault, which Terraform renders against the user's source line.
 */
import type { ProtoMessage } from './protobuf';

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

/** The protobuf form of an attribute path (`tfplugin6.AttributePath`). */
export function toProtoAttributePath(path: readonly PathStep[]): ProtoMessage {
  return {
    steps: path.map((step) =>
      'attribute' in step
        ? { attribute_name: step.attribute }
        : 'key' in step
          ? { element_key_string: step.key }
          : { element_key_int: step.index },
    ),
  };
}

/** The protobuf form of a diagnostic (`tfplugin6.Diagnostic`). */
export function toProtoDiagnostic(diagnostic: Diagnostic): ProtoMessage {
  return {
    severity: diagnostic.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: diagnostic.summary,
    detail: diagnostic.detail ?? '',
    attribute: diagnostic.path && diagnostic.path.length > 0 ? toProtoAttributePath(diagnostic.path) : undefined,
  };
}
