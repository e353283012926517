/**
 * Schemas of the framework, seen by the protocol: the object type that decodes a resource's
 * values, and the gRPC `tfplugin6.Schema` message Terraform receives in GetProviderSchema.
 */
import type { ProtoMessage } from '../protocol/protobuf';
import { typeToJsonBytes, type TerraformType } from '../protocol/terraform-type';
import type { AttributeSchema, Schema } from './types';

/** The Terraform object type of a schema's values: one attribute per schema attribute. */
export function schemaObjectType(schema: Schema): TerraformType {
  const attributes: Record<string, TerraformType> = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) attributes[name] = attribute.type;
  return ['object', attributes];
}

/** Names of the schema's attributes, sorted (Terraform's order). */
export function attributeNames(schema: Schema): string[] {
  return Object.keys(schema.attributes).sort();
}

/** Descriptions are Markdown per the resource contract. */
const DESCRIPTION_KIND = 'MARKDOWN';

function toProtoAttribute(name: string, attribute: AttributeSchema): ProtoMessage {
  return {
    name,
    type: typeToJsonBytes(attribute.type),
    description: attribute.description,
    description_kind: DESCRIPTION_KIND,
    required: attribute.required === true,
    optional: attribute.optional === true,
    computed: attribute.computed === true,
    sensitive: attribute.sensitive === true,
  };
}

/** The `tfplugin6.Schema` message of a schema. */
export function toProtoSchema(schema: Schema): ProtoMessage {
  return {
    version: schema.version ?? 0,
    block: {
      version: schema.version ?? 0,
      attributes: attributeNames(schema).map((name) => toProtoAttribute(name, schema.attributes[name]!)),
      block_types: [],
      description: schema.description,
      description_kind: DESCRIPTION_KIND,
    },
  };
}

/** Problems with a schema definition itself (a bug of the provider, found at start-up). */
export function checkSchema(owner: string, schema: Schema): string[] {
  const problems: string[] = [];
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const where = `${owner}.${name}`;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) problems.push(`${where}: attribute names are lower snake case`);
    const modes = [attribute.required, attribute.optional, attribute.computed].filter(Boolean).length;
    if (modes === 0) problems.push(`${where}: set one of required, optional, computed`);
    if (attribute.required && (attribute.optional || attribute.computed)) {
      problems.push(`${where}: required excludes optional and computed`);
    }
    if (attribute.useStateForUnknown && !attribute.computed) problems.push(`${where}: useStateForUnknown needs computed`);
  }
  return problems;
}
