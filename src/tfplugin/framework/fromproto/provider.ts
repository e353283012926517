/**
 * Provider-level requests from their protobuf form (GetMetadata, GetProviderSchema,
 * ValidateProviderConfig, ConfigureProvider, StopProvider).
 */
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type { ClientCapabilities, ConfigureProviderRequest, ProviderRequest, ValidateProviderConfigRequest } from '../provider-server';

/** A request without fields of its own (GetMetadata, GetProviderSchema, StopProvider). */
export function emptyRequest(signal: AbortSignal): ProviderRequest {
  return { signal };
}

/** `tfplugin6.ValidateProviderConfig.Request`. */
export function validateProviderConfigRequest(
  request: tfplugin6.ValidateProviderConfig_Request,
  signal: AbortSignal,
): ValidateProviderConfigRequest {
  return { config: request.config, signal };
}

/** `tfplugin6.ConfigureProvider.Request`. */
export function configureProviderRequest(request: tfplugin6.ConfigureProvider_Request, signal: AbortSignal): ConfigureProviderRequest {
  return { terraformVersion: request.terraform_version ?? '', config: request.config, signal };
}

/** `tfplugin6.ClientCapabilities`; undefined when Terraform sent none (versions before it existed). */
export function clientCapabilities(proto: tfplugin6.ClientCapabilities | undefined): ClientCapabilities | undefined {
  if (proto === undefined) return undefined;
  return { deferralAllowed: proto.deferral_allowed === true, writeOnlyAttributesAllowed: proto.write_only_attributes_allowed === true };
}
