/** Data-source responses in their protobuf form. */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { ReadDataSourceResponse } from '../provider-server';
import { diagnostics } from './diagnostics';

/** `tfplugin6.ReadDataSource.Response`. */
export function readDataSourceResponse(response: ReadDataSourceResponse): tfplugin6.ReadDataSource_Response {
  return { state: response.state, diagnostics: diagnostics(response.diagnostics) };
}
