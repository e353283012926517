/** The data-source calls: validation and read. */
import type { DiagnosticsCollector } from '../diagnostics';
import type { ProviderResponse, ReadDataSourceRequest, ReadDataSourceResponse, ValidateConfigRequest } from '../provider-server';
import type { DataSource } from '../types';
import { Abort, requireContext, runCall, type CallInfo, type ServerScope } from './call';
import { checkKnown, decodeObject, encodeObject } from './values';

function callInfo<TContext>(scope: ServerScope<TContext>, typeName: string, operation: string, signal: AbortSignal): CallInfo {
  return { typeName, operation, schema: scope.dataSources.get(typeName)?.schema, signal };
}

function requireDataSource<TContext>(scope: ServerScope<TContext>, typeName: string, diags: DiagnosticsCollector): DataSource<TContext> {
  const dataSource = scope.dataSources.get(typeName);
  if (!dataSource) {
    diags.error('Unknown data source type', `This provider has no data source ${JSON.stringify(typeName)}.`);
    throw new Abort();
  }
  return dataSource;
}

/** ValidateDataResourceConfig: the data source's static checks. */
export function validateDataResourceConfig<TContext>(scope: ServerScope<TContext>, req: ValidateConfigRequest): Promise<ProviderResponse> {
  return runCall<ProviderResponse, TContext>(scope, callInfo(scope, req.typeName, 'validate', req.signal), {}, async (diags) => {
    const found = requireDataSource(scope, req.typeName, diags);
    const config = decodeObject(req.config, found.schema, diags, 'config');
    if (config) found.validate?.(config, diags);
    return {};
  });
}

/** ReadDataSource: the full state, or diagnostics. */
export function readDataSource<TContext>(scope: ServerScope<TContext>, req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
  return runCall<ReadDataSourceResponse, TContext>(scope, callInfo(scope, req.typeName, 'read', req.signal), {}, async (diags) => {
    const found = requireDataSource(scope, req.typeName, diags);
    const config = decodeObject(req.config, found.schema, diags, 'config') ?? {};
    const state = await found.read(requireContext(scope, diags), { config, signal: req.signal }, diags);
    if (diags.hasErrors()) return {};
    if (state === null) {
      diags.error('Data source returned no state', `${found.typeName}.read returned nothing. This is a bug in the provider.`);
      return {};
    }
    return { state: encodeObject(checkKnown(state, found, diags, 'read'), found.schema, diags, 'state') };
  });
}
