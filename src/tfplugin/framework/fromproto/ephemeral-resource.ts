/** Ephemeral-resource requests from their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { EphemeralResourceRequest, OpenEphemeralResourceRequest, ValidateConfigRequest } from '../provider-server';
import { clientCapabilities } from './provider';

/** `tfplugin6.ValidateEphemeralResourceConfig.Request`. */
export function validateEphemeralResourceConfigRequest(
  request: tfplugin6.ValidateEphemeralResourceConfig_Request,
  signal: AbortSignal,
): ValidateConfigRequest {
  return { typeName: request.type_name ?? '', config: request.config, signal };
}

/** `tfplugin6.OpenEphemeralResource.Request`. */
export function openEphemeralResourceRequest(request: tfplugin6.OpenEphemeralResource_Request, signal: AbortSignal): OpenEphemeralResourceRequest {
  return { typeName: request.type_name ?? '', config: request.config, clientCapabilities: clientCapabilities(request.client_capabilities), signal };
}

/** `tfplugin6.RenewEphemeralResource.Request` or `tfplugin6.CloseEphemeralResource.Request`. */
export function ephemeralResourceRequest(
  request: tfplugin6.RenewEphemeralResource_Request | tfplugin6.CloseEphemeralResource_Request,
  signal: AbortSignal,
): EphemeralResourceRequest {
  return { typeName: request.type_name ?? '', private: request.private, signal };
}
