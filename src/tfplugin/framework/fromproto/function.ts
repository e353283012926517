/** Function requests from their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { CallFunctionRequest } from '../provider-server';

/** `tfplugin6.CallFunction.Request`. */
export function callFunctionRequest(request: tfplugin6.CallFunction_Request, signal: AbortSignal): CallFunctionRequest {
  return { name: request.name ?? '', arguments: request.arguments ?? [], signal };
}
