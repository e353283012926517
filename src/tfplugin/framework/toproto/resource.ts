/** Managed-resource responses in their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type {
  ApplyResourceChangeResponse,
  ImportResourceStateResponse,
  PlanResourceChangeResponse,
  ReadResourceResponse,
  UpgradeResourceStateResponse,
} from '../provider-server';
import { attributePath, diagnostics } from './diagnostics';

/** `tfplugin6.UpgradeResourceState.Response`. */
export function upgradeResourceStateResponse(response: UpgradeResourceStateResponse): tfplugin6.UpgradeResourceState_Response {
  return { upgraded_state: response.upgradedState, diagnostics: diagnostics(response.diagnostics) };
}

/** `tfplugin6.ReadResource.Response`. */
export function readResourceResponse(response: ReadResourceResponse): tfplugin6.ReadResource_Response {
  return { new_state: response.newState, private: response.private, diagnostics: diagnostics(response.diagnostics) };
}

/** `tfplugin6.PlanResourceChange.Response`. */
export function planResourceChangeResponse(response: PlanResourceChangeResponse): tfplugin6.PlanResourceChange_Response {
  return {
    planned_state: response.plannedState,
    requires_replace: response.requiresReplace.map(attributePath),
    planned_private: response.plannedPrivate,
    diagnostics: diagnostics(response.diagnostics),
  };
}

/** `tfplugin6.ApplyResourceChange.Response`. */
export function applyResourceChangeResponse(response: ApplyResourceChangeResponse): tfplugin6.ApplyResourceChange_Response {
  return { new_state: response.newState, private: response.private, diagnostics: diagnostics(response.diagnostics) };
}

/** `tfplugin6.ImportResourceState.Response`. */
export function importResourceStateResponse(response: ImportResourceStateResponse): tfplugin6.ImportResourceState_Response {
  return {
    imported_resources: response.importedResources.map((imported) => ({ type_name: imported.typeName, state: imported.state, private: imported.private })),
    diagnostics: diagnostics(response.diagnostics),
  };
}
