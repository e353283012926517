/** Ephemeral-resource responses in their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { OpenEphemeralResourceResponse, RenewEphemeralResourceResponse } from '../provider-server';
import { diagnostics } from './diagnostics';

/** `google.protobuf.Timestamp` of a time (whole milliseconds, as JavaScript keeps them). */
export function timestamp(time: Date): tfplugin6.google_protobuf_Timestamp {
  const ms = time.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** `tfplugin6.OpenEphemeralResource.Response`. */
export function openEphemeralResourceResponse(response: OpenEphemeralResourceResponse): tfplugin6.OpenEphemeralResource_Response {
  return {
    diagnostics: diagnostics(response.diagnostics),
    result: response.result,
    ...(response.renewAt ? { renew_at: timestamp(response.renewAt) } : {}),
    ...(response.private ? { private: response.private } : {}),
  };
}

/** `tfplugin6.RenewEphemeralResource.Response`. */
export function renewEphemeralResourceResponse(response: RenewEphemeralResourceResponse): tfplugin6.RenewEphemeralResource_Response {
  return {
    diagnostics: diagnostics(response.diagnostics),
    ...(response.renewAt ? { renew_at: timestamp(response.renewAt) } : {}),
    ...(response.private ? { private: response.private } : {}),
  };
}
