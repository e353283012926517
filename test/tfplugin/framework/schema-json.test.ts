import { renderProviderSchemaJson, schemaJson } from '../../../src/tfplugin/framework/schema-json';
import { demoProvider } from './fixtures/demo-provider';

// The comparison with the real `terraform providers schema -json` output is in e2e.test.ts.
describe('renderProviderSchemaJson', () => {
  it('keys the provider by its full source address with provider, resource and data source schemas', () => {
    const json = renderProviderSchemaJson(demoProvider as never, 'registry.terraform.io/example/demo') as any;
    expect(json.format_version).toBe('1.0');
    const provider = json.provider_schemas['registry.terraform.io/example/demo'];
    expect(Object.keys(provider)).toEqual(['provider', 'resource_schemas', 'data_source_schemas']);
    expect(provider.resource_schemas.demo_thing.block.attributes.tags).toEqual({
      type: ['set', 'string'],
      description: 'Tags.',
      description_kind: 'markdown',
      optional: true,
    });
    expect(provider.resource_schemas.demo_thing.block.attributes.secret.sensitive).toBe(true);
  });

  it('leaves out what terraform leaves out: empty descriptions, false flags, empty maps', () => {
    expect(schemaJson({ description: '', attributes: {} })).toEqual({ version: 0, block: { description_kind: 'markdown' } });
    const json = renderProviderSchemaJson({ ...demoProvider, resources: [], dataSources: [] } as never, 'x/y/z') as any;
    expect(Object.keys(json.provider_schemas['x/y/z'])).toEqual(['provider']);
  });
});
