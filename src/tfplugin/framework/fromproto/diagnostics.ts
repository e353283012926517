/**
 * Diagnostics and attribute paths from their protobuf form: what a client of the provider
 * (the test harness, for one) reads back from a response.
 */
import type { Diagnostic, PathStep } from '../../protocol/diagnostics';
import type * as tfplugin6 from '../../protocol/tfplugin6';

/** `tfplugin6.AttributePath`. */
export function attributePath(path: tfplugin6.AttributePath | undefined): PathStep[] {
  return (path?.steps ?? []).map((step) =>
    step.attribute_name !== undefined
      ? { attribute: step.attribute_name }
      : step.element_key_string !== undefined
        ? { key: step.element_key_string }
        : { index: step.element_key_int ?? 0 },
  );
}

/** `tfplugin6.Diagnostic` (an INVALID severity reads as an error). */
export function diagnostic(proto: tfplugin6.Diagnostic): Diagnostic {
  const path = attributePath(proto.attribute);
  return {
    severity: proto.severity === 'WARNING' ? 'warning' : 'error',
    summary: proto.summary ?? '',
    detail: proto.detail ?? '',
    ...(path.length > 0 ? { path } : {}),
  };
}

/** A response's `diagnostics` field. */
export function diagnostics(protos: readonly tfplugin6.Diagnostic[] | undefined): Diagnostic[] {
  return (protos ?? []).map(diagnostic);
}
