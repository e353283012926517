import { renderProviderSchemaJson, schemaJson } from '../../../src/tfplugin/framework/schema-json';
import { demoProvider } from './fixtures/demo-provider';

// The comparison with the real `terraform providers schema -json` output is in e2e.test.ts.
describe('renderProviderSchemaJson', () => {
  it('keys the provider by its full source address with provider, resource, data source, ephemeral resource schemas and functions', () => {
    const json = renderProviderSchemaJson(demoProvider as never, 'registry.terraform.io/example/demo') as any;
    expect(json.format_version).toBe('1.0');
    const provider = json.provider_schemas['registry.terraform.io/example/demo'];
    expect(Object.keys(provider)).toEqual(['provider', 'resource_schemas', 'data_source_schemas', 'ephemeral_resource_schemas', 'functions']);
    expect(provider.resource_schemas.demo_thing.block.attributes.tags).toEqual({
      type: ['set', 'string'],
      description: 'Tags.',
      description_kind: 'markdown',
      optional: true,
    });
    expect(provider.resource_schemas.demo_thing.block.attributes.secret.sensitive).toBe(true);
    expect(provider.resource_schemas.demo_credential.block.attributes.secret_wo).toMatchObject({ sensitive: true, write_only: true });
    expect(provider.resource_schemas.demo_credential.block.attributes.secret_wo_version.write_only).toBeUndefined();
    expect(Object.keys(provider.ephemeral_resource_schemas)).toEqual(['demo_lease']);
    expect(provider.functions.join_parts).toEqual({
      description: 'Joins the parts with the separator (`-` when null); an empty part is an error.',
      summary: 'Joins non-empty parts.',
      return_type: 'string',
      parameters: [{ name: 'separator', description: 'Goes between parts.', is_nullable: true, type: 'string' }],
      variadic_parameter: { name: 'parts', description: 'The parts.', type: 'string' },
    });
  });

  it('leaves out what terraform leaves out: empty descriptions, false flags, empty maps', () => {
    expect(schemaJson({ description: '', attributes: {} })).toEqual({ version: 0, block: { description_kind: 'markdown' } });
    const json = renderProviderSchemaJson({ ...demoProvider, resources: [], dataSources: [], ephemeralResources: [], functions: [] } as never, 'x/y/z') as any;
    expect(Object.keys(json.provider_schemas['x/y/z'])).toEqual(['provider']);
  });
});
