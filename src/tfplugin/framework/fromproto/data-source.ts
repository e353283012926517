/** Data-source requests from their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { ReadDataSourceRequest, ValidateConfigRequest } from '../provider-server';

/** `tfplugin6.ValidateDataResourceConfig.Request`. */
export function validateDataResourceConfigRequest(
  request: tfplugin6.ValidateDataResourceConfig_Request,
  signal: AbortSignal,
): ValidateConfigRequest {
  return { typeName: request.type_name ?? '', config: request.config, signal };
}

/** `tfplugin6.ReadDataSource.Request`. */
export function readDataSourceRequest(request: tfplugin6.ReadDataSource_Request, signal: AbortSignal): ReadDataSourceRequest {
  return { typeName: request.type_name ?? '', config: request.config, signal };
}
