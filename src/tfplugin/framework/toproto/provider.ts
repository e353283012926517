/**
 * Provider-level responses in their protobuf form (GetMetadata, GetProviderSchema,
 * ValidateProviderConfig, ConfigureProvider, StopProvider), including the `tfplugin6.Schema`
 * message of a framework schema.
 */
import { typeToJsonBytes } from '../../protocol/terraform-type';
import type * as tfplugin6 from '../../protocol/tfplugin6';
import type {
  GetMetadataResponse,
  GetProviderSchemaResponse,
  ProviderResponse,
  ServerCapabilities,
  StopProviderResponse,
} from '../provider-server';
import { attributeNames } from '../schema';
import type { AttributeSchema, Schema } from '../types';
import { diagnostics } from './diagnostics';
import { functionSignatures } from './function';

/** Descriptions are Markdown per the resource contract. */
const DESCRIPTION_KIND = 'MARKDOWN';

function attribute(name: string, attribute: AttributeSchema): tfplugin6.Schema_Attribute {
  return {
    name,
    type: typeToJsonBytes(attribute.type),
    description: attribute.description,
    description_kind: DESCRIPTION_KIND,
    required: attribute.required === true,
    optional: attribute.optional === true,
    computed: attribute.computed === true,
    sensitive: attribute.sensitive === true,
    write_only: attribute.writeOnly === true,
  };
}

/** `tfplugin6.Schema` of a framework schema (attributes in Terraform's sorted order). */
export function schema(schema: Schema): tfplugin6.Schema {
  return {
    version: schema.version ?? 0,
    block: {
      version: schema.version ?? 0,
      attributes: attributeNames(schema).map((name) => attribute(name, schema.attributes[name]!)),
      block_types: [],
      description: schema.description,
      description_kind: DESCRIPTION_KIND,
    },
  };
}

function serverCapabilities(capabilities: ServerCapabilities): tfplugin6.ServerCapabilities {
  return {
    plan_destroy: capabilities.planDestroy,
    get_provider_schema_optional: capabilities.getProviderSchemaOptional,
    move_resource_state: capabilities.moveResourceState,
  };
}

/** `tfplugin6.GetMetadata.Response`. */
export function getMetadataResponse(response: GetMetadataResponse): tfplugin6.GetMetadata_Response {
  return {
    server_capabilities: serverCapabilities(response.serverCapabilities),
    diagnostics: diagnostics(response.diagnostics),
    resources: response.resources.map((type_name) => ({ type_name })),
    data_sources: response.dataSources.map((type_name) => ({ type_name })),
    functions: response.functions.map((name) => ({ name })),
    ephemeral_resources: response.ephemeralResources.map((type_name) => ({ type_name })),
  };
}

function schemas(bySchema: { readonly [typeName: string]: Schema }): { [typeName: string]: tfplugin6.Schema } {
  return Object.fromEntries(Object.entries(bySchema).map(([typeName, value]) => [typeName, schema(value)]));
}

/** `tfplugin6.GetProviderSchema.Response`. */
export function getProviderSchemaResponse(response: GetProviderSchemaResponse): tfplugin6.GetProviderSchema_Response {
  return {
    provider: schema(response.provider),
    resource_schemas: schemas(response.resourceSchemas),
    data_source_schemas: schemas(response.dataSourceSchemas),
    functions: functionSignatures(response.functions),
    ephemeral_resource_schemas: schemas(response.ephemeralResourceSchemas),
    diagnostics: diagnostics(response.diagnostics),
    server_capabilities: serverCapabilities(response.serverCapabilities),
  };
}

/** A response that carries only diagnostics (ValidateProviderConfig, ConfigureProvider). */
export function diagnosticsResponse(response: ProviderResponse): { diagnostics: tfplugin6.Diagnostic[] } {
  return { diagnostics: diagnostics(response.diagnostics) };
}

/** `tfplugin6.StopProvider.Response`. */
export function stopProviderResponse(response: StopProviderResponse): tfplugin6.StopProvider_Response {
  return { Error: response.error };
}
