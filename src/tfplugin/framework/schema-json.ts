/**
 * The JSON that `terraform providers schema -json` prints for a provider, rendered straight from
 * the definition (no Terraform run needed). The CDK for Terraform bindings generator reads it.
 * Field order and omissions follow Terraform's `jsonprovider` package: empty descriptions,
 * false flags and empty maps are left out; `version` is always there.
 */
import type { FunctionParameter, ProviderFunction } from './function';
import type { AttributeSchema, ProviderDefinition, Schema } from './types';
import { attributeNames } from './schema';

/** The JSON of one attribute. */
function attributeJson(attribute: AttributeSchema): Record<string, unknown> {
  const json: Record<string, unknown> = { type: attribute.type };
  if (attribute.description) json.description = attribute.description;
  json.description_kind = 'markdown';
  if (attribute.required) json.required = true;
  if (attribute.optional) json.optional = true;
  if (attribute.computed) json.computed = true;
  if (attribute.sensitive) json.sensitive = true;
  if (attribute.writeOnly) json.write_only = true;
  return json;
}

/** The JSON of a schema: `{ version, block: { attributes, description, description_kind } }`. */
export function schemaJson(schema: Schema): Record<string, unknown> {
  const block: Record<string, unknown> = {};
  const names = attributeNames(schema);
  if (names.length > 0) {
    block.attributes = Object.fromEntries(names.map((name) => [name, attributeJson(schema.attributes[name]!)]));
  }
  if (schema.description) block.description = schema.description;
  block.description_kind = 'markdown';
  return { version: schema.version ?? 0, block };
}

function byTypeName(items: ReadonlyArray<{ typeName: string; schema: Schema }>): Record<string, unknown> {
  return Object.fromEntries(
    [...items].sort((a, b) => a.typeName.localeCompare(b.typeName)).map((item) => [item.typeName, schemaJson(item.schema)]),
  );
}

/** The JSON of a function parameter (Terraform's `jsonfunction` package). */
function parameterJson(parameter: FunctionParameter): Record<string, unknown> {
  const json: Record<string, unknown> = { name: parameter.name };
  if (parameter.description) json.description = parameter.description;
  if (parameter.allowNull) json.is_nullable = true;
  json.type = parameter.type;
  return json;
}

/** The JSON of a function's signature. */
export function functionJson(fn: ProviderFunction): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (fn.description) json.description = fn.description;
  if (fn.summary) json.summary = fn.summary;
  if (fn.deprecationMessage) json.deprecation_message = fn.deprecationMessage;
  json.return_type = fn.returnType;
  if (fn.parameters.length > 0) json.parameters = fn.parameters.map(parameterJson);
  if (fn.variadicParameter) json.variadic_parameter = parameterJson(fn.variadicParameter);
  return json;
}

/**
 * Renders what `terraform providers schema -json` prints for this provider.
 *
 * @param definition the provider
 * @param sourceAddress the full source address, e.g. `registry.terraform.io/orgadmin/orgadmin`
 * @example
 * renderProviderSchemaJson(orgadminProvider, 'registry.terraform.io/orgadmin/orgadmin')
 * // { format_version: '1.0', provider_schemas: { 'registry.terraform.io/orgadmin/orgadmin': { provider, resource_schemas, data_source_schemas, ephemeral_resource_schemas, functions } } }
 */
export function renderProviderSchemaJson(definition: ProviderDefinition<unknown>, sourceAddress: string): object {
  const provider: Record<string, unknown> = { provider: schemaJson(definition.schema) };
  if (definition.resources.length > 0) provider.resource_schemas = byTypeName(definition.resources);
  if (definition.dataSources.length > 0) provider.data_source_schemas = byTypeName(definition.dataSources);
  const ephemeral = definition.ephemeralResources ?? [];
  if (ephemeral.length > 0) provider.ephemeral_resource_schemas = byTypeName(ephemeral);
  const functions = [...(definition.functions ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  if (functions.length > 0) provider.functions = Object.fromEntries(functions.map((fn) => [fn.name, functionJson(fn)]));
  return { format_version: '1.0', provider_schemas: { [sourceAddress]: provider } };
}
