/**
 * The ephemeral-resource calls: validation, open, renew, close. The private data an open sets
 * travels as bytes (private-state.ts) through Terraform and back to renew and close; the result is
 * sent once and never stored by Terraform.
 */
import { containsUnknown, UNKNOWN } from '../../protocol/unknown';
import type { DiagnosticsCollector } from '../diagnostics';
import type { EphemeralResource } from '../ephemeral';
import { PrivateState } from '../private-state';
import type {
  EphemeralResourceRequest,
  OpenEphemeralResourceRequest,
  OpenEphemeralResourceResponse,
  ProviderResponse,
  RenewEphemeralResourceResponse,
  ValidateConfigRequest,
} from '../provider-server';
import type { ObjectValue } from '../types';
import { Abort, requireContext, runCall, type CallInfo, type ServerScope } from './call';
import { checkKnown, decodeObject, encodeObject } from './values';

function callInfo<TContext>(scope: ServerScope<TContext>, typeName: string, operation: string, signal: AbortSignal): CallInfo {
  return { typeName, operation, schema: scope.ephemeralResources.get(typeName)?.schema, signal };
}

function requireEphemeral<TContext>(scope: ServerScope<TContext>, typeName: string, diags: DiagnosticsCollector): EphemeralResource<TContext> {
  const found = scope.ephemeralResources.get(typeName);
  if (!found) {
    diags.error('Unknown ephemeral resource type', `This provider has no ephemeral resource ${JSON.stringify(typeName)}.`);
    throw new Abort();
  }
  return found;
}

/** ValidateEphemeralResourceConfig: the ephemeral resource's static checks. */
export function validateEphemeralResourceConfig<TContext>(scope: ServerScope<TContext>, req: ValidateConfigRequest): Promise<ProviderResponse> {
  return runCall<ProviderResponse, TContext>(scope, callInfo(scope, req.typeName, 'validate', req.signal), {}, async (diags) => {
    const found = requireEphemeral(scope, req.typeName, diags);
    const config = decodeObject(req.config, found.schema, diags, 'config');
    if (config) found.validate?.(config, diags);
    return {};
  });
}

/**
 * The value of an ephemeral resource whose configuration is not known yet: the configuration, with
 * every attribute the provider computes unknown (Terraform itself does this and does not call
 * open; this covers a Terraform that does).
 */
function notYetKnown<TContext>(found: EphemeralResource<TContext>, config: ObjectValue): ObjectValue {
  const value: ObjectValue = {};
  for (const [name, attribute] of Object.entries(found.schema.attributes)) {
    const configured = config[name] ?? null;
    value[name] = attribute.computed && configured === null ? UNKNOWN : configured;
  }
  return value;
}

/** OpenEphemeralResource: the resource's value, when to renew it, and its private data. */
export function openEphemeralResource<TContext>(
  scope: ServerScope<TContext>,
  req: OpenEphemeralResourceRequest,
): Promise<OpenEphemeralResourceResponse> {
  return runCall<OpenEphemeralResourceResponse, TContext>(scope, callInfo(scope, req.typeName, 'open', req.signal), {}, async (diags) => {
    const found = requireEphemeral(scope, req.typeName, diags);
    const config = decodeObject(req.config, found.schema, diags, 'config') ?? {};
    if (containsUnknown(config)) return { result: encodeObject(notYetKnown(found, config), found.schema, diags, 'result') };
    const privateState = PrivateState.decode(undefined);
    const opened = await found.open(requireContext(scope, diags), { config, private: privateState, signal: req.signal }, diags);
    if (diags.hasErrors()) return {};
    if (opened === null) {
      diags.error('Ephemeral resource returned no result', `${found.typeName}.open returned nothing. This is a bug in the provider.`);
      return {};
    }
    if (opened.renewAt !== undefined && !found.renew) {
      diags.error('Ephemeral resource cannot be renewed', `${found.typeName}.open asked to be renewed but has no renew. This is a bug in the provider.`);
      return {};
    }
    const result = checkKnown(opened.result, found, diags, 'open');
    return { result: encodeObject(result, found.schema, diags, 'result'), renewAt: opened.renewAt, private: privateState.encode() };
  });
}

/** RenewEphemeralResource: extends the remote object's life; the next renewal time, if any. */
export function renewEphemeralResource<TContext>(
  scope: ServerScope<TContext>,
  req: EphemeralResourceRequest,
): Promise<RenewEphemeralResourceResponse> {
  return runCall<RenewEphemeralResourceResponse, TContext>(scope, callInfo(scope, req.typeName, 'renew', req.signal), { private: req.private }, async (diags) => {
    const found = requireEphemeral(scope, req.typeName, diags);
    if (!found.renew) {
      diags.error('Ephemeral resource cannot be renewed', `Terraform asked to renew ${found.typeName}, which has no renew. This is a bug in the provider.`);
      return { private: req.private };
    }
    const privateState = PrivateState.decode(req.private);
    const renewed = await found.renew(requireContext(scope, diags), { private: privateState, signal: req.signal }, diags);
    return { renewAt: renewed.renewAt, private: privateState.encode() };
  });
}

/** CloseEphemeralResource: ends the remote object; nothing to do for a resource without close. */
export function closeEphemeralResource<TContext>(scope: ServerScope<TContext>, req: EphemeralResourceRequest): Promise<ProviderResponse> {
  return runCall<ProviderResponse, TContext>(scope, callInfo(scope, req.typeName, 'close', req.signal), {}, async (diags) => {
    const found = requireEphemeral(scope, req.typeName, diags);
    if (!found.close) return {};
    await found.close(requireContext(scope, diags), { private: PrivateState.decode(req.private), signal: req.signal }, diags);
    return {};
  });
}
