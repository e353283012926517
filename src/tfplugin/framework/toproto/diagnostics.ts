/** Diagnostics and attribute paths in their protobuf form. */
import type { Diagnostic, PathStep } from '../../protocol/diagnostics';
import type * as tfplugin6 from '../../protocol/tfplugin6';

/** `tfplugin6.AttributePath`. */
export function attributePath(path: readonly PathStep[]): tfplugin6.AttributePath {
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

/** `tfplugin6.Diagnostic`. */
export function diagnostic(diagnostic: Diagnostic): tfplugin6.Diagnostic {
  return {
    severity: diagnostic.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: diagnostic.summary,
    detail: diagnostic.detail ?? '',
    attribute: diagnostic.path && diagnostic.path.length > 0 ? attributePath(diagnostic.path) : undefined,
  };
}

/** A response's `diagnostics` field. */
export function diagnostics(diagnostics: readonly Diagnostic[]): tfplugin6.Diagnostic[] {
  return diagnostics.map(diagnostic);
}

/** A response that only says `detail` is not supported by this provider. */
export function unsupported(detail: string): { diagnostics: tfplugin6.Diagnostic[] } {
  return { diagnostics: [diagnostic({ severity: 'error', summary: 'Not supported by this provider', detail })] };
}
