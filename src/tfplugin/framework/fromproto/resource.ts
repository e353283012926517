/** Managed-resource requests from their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type {
  ApplyResourceChangeRequest,
  ImportResourceStateRequest,
  PlanResourceChangeRequest,
  ReadResourceRequest,
  UpgradeResourceStateRequest,
  ValidateConfigRequest,
} from '../provider-server';
import { clientCapabilities } from './provider';

/** `tfplugin6.ValidateResourceConfig.Request`. */
export function validateResourceConfigRequest(request: tfplugin6.ValidateResourceConfig_Request, signal: AbortSignal): ValidateConfigRequest {
  return { typeName: request.type_name ?? '', config: request.config, clientCapabilities: clientCapabilities(request.client_capabilities), signal };
}

/** `tfplugin6.UpgradeResourceState.Request`. */
export function upgradeResourceStateRequest(request: tfplugin6.UpgradeResourceState_Request, signal: AbortSignal): UpgradeResourceStateRequest {
  return { typeName: request.type_name ?? '', version: request.version ?? 0, rawState: request.raw_state, signal };
}

/** `tfplugin6.ReadResource.Request`. */
export function readResourceRequest(request: tfplugin6.ReadResource_Request, signal: AbortSignal): ReadResourceRequest {
  return { typeName: request.type_name ?? '', currentState: request.current_state, private: request.private, signal };
}

/** `tfplugin6.PlanResourceChange.Request`. */
export function planResourceChangeRequest(request: tfplugin6.PlanResourceChange_Request, signal: AbortSignal): PlanResourceChangeRequest {
  return {
    typeName: request.type_name ?? '',
    priorState: request.prior_state,
    proposedNewState: request.proposed_new_state,
    config: request.config,
    priorPrivate: request.prior_private,
    signal,
  };
}

/** `tfplugin6.ApplyResourceChange.Request`. */
export function applyResourceChangeRequest(request: tfplugin6.ApplyResourceChange_Request, signal: AbortSignal): ApplyResourceChangeRequest {
  return {
    typeName: request.type_name ?? '',
    priorState: request.prior_state,
    plannedState: request.planned_state,
    config: request.config,
    plannedPrivate: request.planned_private,
    signal,
  };
}

/** `tfplugin6.ImportResourceState.Request`. */
export function importResourceStateRequest(request: tfplugin6.ImportResourceState_Request, signal: AbortSignal): ImportResourceStateRequest {
  return { typeName: request.type_name ?? '', id: request.id ?? '', signal };
}
