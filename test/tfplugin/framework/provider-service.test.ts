import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderService } from '../../../src/tfplugin/framework/provider-service';
import { schemaObjectType } from '../../../src/tfplugin/framework/schema';
import type { ObjectValue, ProviderDefinition, Resource, Schema } from '../../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import type { ProtoMessage } from '../../../src/tfplugin/protocol/protobuf';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { decodeMsgpackValue, encodeMsgpackValue } from '../../../src/tfplugin/protocol/values';
import { demoProvider, readStore, type DemoContext } from './fixtures/demo-provider';

const thingSchema = demoProvider.resources[0]!.schema;
const logLines: string[] = [];
const logger = createJsonLogger({ module: 'test', level: 'debug', write: (line) => logLines.push(line) });

function dv(value: ObjectValue | null, schema: Schema = thingSchema): { msgpack: Buffer } {
  return { msgpack: encodeMsgpackValue(value, schemaObjectType(schema)) };
}

function value(dynamic: unknown, schema: Schema = thingSchema): unknown {
  return decodeMsgpackValue((dynamic as { msgpack: Buffer }).msgpack, schemaObjectType(schema));
}

function thing(attributes: ObjectValue): ObjectValue {
  return { id: null, name: null, size: null, tags: null, labels: null, enabled: null, secret: null, revision: null, created_at: null, ...attributes };
}

let dir: string;
let storePath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'provider-service-'));
  storePath = join(dir, 'store.json');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function configured<T>(definition: ProviderDefinition<T> = demoProvider as never): Promise<(method: string, request: ProtoMessage) => Promise<ProtoMessage>> {
  const handlers = new ProviderService(definition, logger).handlers();
  const byName = handlers as unknown as Record<string, (request: ProtoMessage) => Promise<ProtoMessage>>;
  const call = async (method: string, request: ProtoMessage): Promise<ProtoMessage> => byName[method]!(request);
  const response = await call('ConfigureProvider', { config: dv({ store_path: storePath }, definition.schema) });
  expect(response.diagnostics).toEqual([]);
  return call;
}

describe('GetProviderSchema', () => {
  it('renders every attribute with its JSON type, flags and Markdown description', async () => {
    const response = (await new ProviderService(demoProvider, logger).handlers().GetProviderSchema!({})) as any;
    const block = response.resource_schemas.demo_thing.block;
    const tags = block.attributes.find((a: any) => a.name === 'tags');
    expect(tags.type.toString()).toBe('["set","string"]');
    expect(tags).toMatchObject({ optional: true, required: false, computed: false, description: 'Tags.', description_kind: 'MARKDOWN' });
    expect(block.attributes.find((a: any) => a.name === 'labels').type.toString()).toBe('["map",["list","string"]]');
    expect(block.attributes.find((a: any) => a.name === 'secret').sensitive).toBe(true);
    expect(block.attributes.map((a: any) => a.name)).toEqual([...block.attributes.map((a: any) => a.name)].sort());
    expect(Object.keys(response.data_source_schemas)).toEqual(['demo_thing']);
    expect(response.provider.block.attributes[0]).toMatchObject({ name: 'store_path', required: true });
    expect(response.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: true });
    expect(response.diagnostics).toEqual([]);
  });

  it('reports a broken schema definition as an error diagnostic', async () => {
    const broken = { ...demoProvider, resources: [{ ...demoProvider.resources[0]!, schema: { description: '', attributes: { x: { type: 'string', description: '' } } } }] } as ProviderDefinition<DemoContext>;
    const response = (await new ProviderService(broken, logger).handlers().GetProviderSchema!({})) as any;
    expect(response.diagnostics[0]).toMatchObject({ severity: 'ERROR', detail: expect.stringContaining('demo_thing.x: set one of required, optional, computed') });
  });
});

describe('GetMetadata and unused RPCs', () => {
  it('lists every type and function it serves and answers the RPCs it does not use with valid responses', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    expect(await handlers.GetMetadata!({})).toMatchObject({
      resources: [{ type_name: 'demo_thing' }, { type_name: 'demo_credential' }],
      data_sources: [{ type_name: 'demo_thing' }],
      ephemeral_resources: [{ type_name: 'demo_lease' }],
      functions: [{ name: 'parse_pair' }, { name: 'join_parts' }],
    });
    expect(await handlers.GetResourceIdentitySchemas!({})).toEqual({ identity_schemas: {}, diagnostics: [] });
    expect(await handlers.StopProvider!({})).toEqual({ Error: '' });
    expect((await handlers.MoveResourceState!({ source_type_name: 'a', target_type_name: 'b' })).diagnostics).toHaveLength(1);
  });
});

describe('PlanResourceChange', () => {
  it('plans computed attributes the configuration leaves unset as unknown on create', async () => {
    const call = await configured();
    const config = thing({ name: 'a', size: 1 });
    const response = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(null), proposed_new_state: dv(config), config: dv(config) })) as any;
    expect(response.diagnostics).toEqual([]);
    expect(value(response.planned_state)).toEqual({ ...config, id: UNKNOWN, revision: UNKNOWN, created_at: UNKNOWN, enabled: true });
    expect(response.requires_replace).toEqual([]);
  });

  it('plans null for a destroy', async () => {
    const call = await configured();
    const prior = thing({ id: 't', name: 'a', revision: 1, created_at: 'x', enabled: true });
    const response = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(prior), proposed_new_state: dv(null), config: dv(null) })) as any;
    expect(response.planned_state.msgpack).toEqual(Buffer.from([0xc0]));
  });

  it('keeps prior values when nothing changed, and useStateForUnknown values on update', async () => {
    const call = await configured();
    const prior = thing({ id: 't', name: 'a', size: 1, revision: 4, created_at: 'then', enabled: true });
    const unchanged = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(prior), proposed_new_state: dv(prior), config: dv(thing({ name: 'a', size: 1 })) })) as any;
    expect(value(unchanged.planned_state)).toEqual(prior);
    const changed = { ...prior, size: 2 };
    const update = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(prior), proposed_new_state: dv(changed), config: dv(thing({ name: 'a', size: 2 })) })) as any;
    expect(value(update.planned_state)).toEqual({ ...changed, revision: UNKNOWN });
    expect(update.requires_replace).toEqual([]);
  });

  it('reports requiresReplace attributes whose value changes, unknown included', async () => {
    const call = await configured();
    const prior = thing({ id: 't', name: 'a', revision: 1, created_at: 'then', enabled: true });
    const proposed: ObjectValue = { ...prior, name: UNKNOWN };
    const response = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(prior), proposed_new_state: dv(proposed), config: dv(thing({ name: UNKNOWN as ObjectValue[string] })) })) as any;
    expect(response.requires_replace).toEqual([{ steps: [{ attribute_name: 'name' }] }]);
  });

  it('reports each replacement path once when the framework and modifyPlan both ask for it', async () => {
    const thingResource = demoProvider.resources[0]!;
    const definition = {
      ...demoProvider,
      resources: [
        {
          ...thingResource,
          modifyPlan(ctx, req, plan, diags) {
            thingResource.modifyPlan?.(ctx, req, plan, diags);
            if (req.priorState && req.plannedState['name'] !== req.priorState['name']) plan.requiresReplace.push(['name']);
          },
        } satisfies Resource<DemoContext>,
      ],
    };
    const call = await configured(definition);
    const prior = thing({ id: 't', name: 'a', revision: 1, created_at: 'then', enabled: true });
    const renamed = { ...prior, name: 'b' };
    const response = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(prior), proposed_new_state: dv(renamed), config: dv(thing({ name: 'b' })) })) as any;
    expect(response.diagnostics).toEqual([]);
    expect(response.requires_replace).toEqual([{ steps: [{ attribute_name: 'name' }] }]);
  });

  it('echoes the prior private data as planned private data', async () => {
    const call = await configured();
    const config = thing({ name: 'a' });
    const response = (await call('PlanResourceChange', { type_name: 'demo_thing', prior_state: dv(null), proposed_new_state: dv(config), config: dv(config), prior_private: Buffer.from('opaque') })) as any;
    expect(response.planned_private).toEqual(Buffer.from('opaque'));
  });
});

describe('ApplyResourceChange, ReadResource, ImportResourceState', () => {
  it('creates, reads, updates and deletes through the resource', async () => {
    const call = await configured();
    const planned = thing({ name: 'a', size: 1, enabled: true, id: UNKNOWN, revision: UNKNOWN, created_at: UNKNOWN });
    const created = (await call('ApplyResourceChange', { type_name: 'demo_thing', prior_state: dv(null), planned_state: dv(planned), config: dv(thing({ name: 'a', size: 1 })), planned_private: Buffer.from('p') })) as any;
    expect(created.diagnostics).toEqual([]);
    expect(created.private).toEqual(Buffer.from('p'));
    const state = value(created.new_state) as ObjectValue;
    expect(state).toMatchObject({ id: 'thing-1', revision: 1, name: 'a' });

    const read = (await call('ReadResource', { type_name: 'demo_thing', current_state: dv(state), private: Buffer.from('p') })) as any;
    expect(value(read.new_state)).toEqual(state);
    expect(read.private).toEqual(Buffer.from('p'));

    const updated = (await call('ApplyResourceChange', { type_name: 'demo_thing', prior_state: dv(state), planned_state: dv({ ...state, size: 2, revision: UNKNOWN }), config: dv(thing({ name: 'a', size: 2 })) })) as any;
    expect(value(updated.new_state)).toMatchObject({ size: 2, revision: 2 });

    const deleted = (await call('ApplyResourceChange', { type_name: 'demo_thing', prior_state: dv(state), planned_state: dv(null), config: dv(null) })) as any;
    expect(deleted.diagnostics).toEqual([]);
    expect(deleted.new_state.msgpack).toEqual(Buffer.from([0xc0]));
    expect(readStore(storePath).things).toEqual({});

    const gone = (await call('ReadResource', { type_name: 'demo_thing', current_state: dv(state) })) as any;
    expect(gone.new_state.msgpack).toEqual(Buffer.from([0xc0]));
  });

  it('imports by id and names the resource type of the imported state', async () => {
    const call = await configured();
    const planned = thing({ name: 'a', enabled: true, id: UNKNOWN, revision: UNKNOWN, created_at: UNKNOWN });
    await call('ApplyResourceChange', { type_name: 'demo_thing', prior_state: dv(null), planned_state: dv(planned), config: dv(thing({ name: 'a' })) });
    const imported = (await call('ImportResourceState', { type_name: 'demo_thing', id: 'thing-1' })) as any;
    expect(imported.imported_resources).toHaveLength(1);
    expect(imported.imported_resources[0].type_name).toBe('demo_thing');
    expect(value(imported.imported_resources[0].state)).toMatchObject({ id: 'thing-1', name: 'a' });
    const missing = (await call('ImportResourceState', { type_name: 'demo_thing', id: 'nope' })) as any;
    expect(missing.imported_resources).toEqual([]);
    expect(missing.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Thing not found' });
  });

  it('refuses to import a resource without importState', async () => {
    const { importState: _omit, ...noImport } = demoProvider.resources[0]!;
    const call = await configured({ ...demoProvider, resources: [noImport as Resource<DemoContext>] });
    const response = (await call('ImportResourceState', { type_name: 'demo_thing', id: 'x' })) as any;
    expect(response.diagnostics[0].summary).toBe('Resource import not supported');
  });
});

describe('errors', () => {
  const exploding: Resource<DemoContext> = {
    ...demoProvider.resources[0]!,
    async create() {
      throw new Error('kaboom');
    },
    async read() {
      return thing({ id: 'x', name: 'a', revision: UNKNOWN });
    },
  };

  it('turns an exception thrown by a resource into "internal error in <type>.<op>" and logs its stack', async () => {
    const call = await configured({ ...demoProvider, resources: [exploding] });
    const response = (await call('ApplyResourceChange', { type_name: 'demo_thing', prior_state: dv(null), planned_state: dv(thing({ name: 'a' })), config: dv(thing({ name: 'a' })) })) as any;
    expect(response.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', summary: 'internal error in demo_thing.apply: kaboom' })]);
    const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry['@message'] === 'internal error in demo_thing.apply');
    expect(logged).toMatchObject({ '@level': 'error', '@module': 'test' });
    expect(logged.error).toContain('kaboom');
  });

  it('rejects a state with unknown values after read, pointing at the attribute', async () => {
    const call = await configured({ ...demoProvider, resources: [exploding] });
    const response = (await call('ReadResource', { type_name: 'demo_thing', current_state: dv(thing({ id: 'x', name: 'a' })) })) as any;
    expect(response.diagnostics[0]).toMatchObject({ summary: 'Provider returned an unknown value', attribute: { steps: [{ attribute_name: 'revision' }] } });
  });

  it('reports an unknown resource type', async () => {
    const call = await configured();
    const response = (await call('ValidateResourceConfig', { type_name: 'demo_nope', config: dv(null) })) as any;
    expect(response.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Unknown resource type' });
  });

  it('reports use before configuration instead of calling the resource', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const response = (await handlers.ReadResource!({ type_name: 'demo_thing', current_state: dv(thing({ id: 'x', name: 'a' })) })) as any;
    expect(response.diagnostics[0].summary).toBe('Provider not configured');
  });

  it('reports a value that does not match the schema as invalid', async () => {
    const call = await configured();
    const response = (await call('ValidateResourceConfig', { type_name: 'demo_thing', config: { msgpack: encodeMsgpackValue(['x'], ['list', 'string']) } })) as any;
    expect(response.diagnostics[0].summary).toBe('Invalid value from Terraform');
  });

  it('gives validation diagnostics the attribute path', async () => {
    const call = await configured();
    const response = (await call('ValidateResourceConfig', { type_name: 'demo_thing', config: dv(thing({ name: 'a b', size: -1 })) })) as any;
    expect(response.diagnostics.map((d: any) => [d.summary, d.attribute.steps])).toEqual([
      ['Invalid name', [{ attribute_name: 'name' }]],
      ['Invalid size', [{ attribute_name: 'size' }]],
    ]);
  });
});

describe('UpgradeResourceState', () => {
  it('turns stored JSON state into msgpack of the current schema, dropping removed attributes', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const json = Buffer.from(JSON.stringify({ id: 't', name: 'a', tags: ['x'], labels: { k: ['v'] }, old_attribute: 1 }));
    const response = (await handlers.UpgradeResourceState!({ type_name: 'demo_thing', version: 0, raw_state: { json } })) as any;
    expect(response.diagnostics).toEqual([]);
    expect(value(response.upgraded_state)).toEqual(thing({ id: 't', name: 'a', tags: ['x'], labels: { k: ['v'] } }));
  });

  it('refuses state written by a newer schema version', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const response = (await handlers.UpgradeResourceState!({ type_name: 'demo_thing', version: 3, raw_state: { json: Buffer.from('{}') } })) as any;
    expect(response.diagnostics[0].summary).toBe('Resource state from a newer provider');
  });
});

describe('UpgradeResourceState across schema versions', () => {
  // demo_thing at version 2: `tags` was a set until version 1 and is a list now; version 0 had
  // `title` instead of `name`. Each upgrade is declared with the schema its states were written in.
  const current = demoProvider.resources[0]! as Resource<DemoContext>;
  const v2Schema: Schema = { ...current.schema, version: 2, attributes: { ...current.schema.attributes, tags: { ...current.schema.attributes['tags']!, type: ['list', 'string'] } } };
  const v1Schema: Schema = { ...current.schema, version: 1 };
  const { name: _name, ...withoutName } = current.schema.attributes;
  const v0Schema: Schema = { ...current.schema, version: 0, attributes: { ...withoutName, title: { type: 'string', optional: true, description: 'Old name.' } } };
  const upgraded: Resource<DemoContext> = {
    ...current,
    schema: v2Schema,
    stateUpgrades: {
      0: { priorSchema: v0Schema, upgrade: ({ title, ...rest }) => ({ ...rest, name: title ?? null, tags: Array.isArray(rest['tags']) ? [...rest['tags']].sort() : null }) },
      1: {
        priorSchema: v1Schema,
        upgrade: (prior, diags) => {
          if (prior['id'] === 'broken') {
            diags.error('Cannot upgrade', 'this state is broken');
            return null;
          }
          return { ...prior, tags: Array.isArray(prior['tags']) ? [...prior['tags']].sort() : null };
        },
      },
    },
  };
  const provider = { ...demoProvider, resources: [upgraded] } as ProviderDefinition<DemoContext>;
  const upgrade = async (version: number, state: object): Promise<any> =>
    new ProviderService(provider, logger).handlers().UpgradeResourceState!({ type_name: 'demo_thing', version, raw_state: { json: Buffer.from(JSON.stringify(state)) } });

  it('decodes a state of an earlier version with that version\'s schema and upgrades it to the current one', async () => {
    const response = await upgrade(1, { id: 't', name: 'a', tags: ['y', 'x'] });
    expect(response.diagnostics).toEqual([]);
    expect(value(response.upgraded_state, v2Schema)).toEqual(thing({ id: 't', name: 'a', tags: ['x', 'y'] }));
  });

  it('goes straight from any older version to the current one with that version\'s upgrade', async () => {
    const response = await upgrade(0, { id: 't', title: 'old', tags: ['b', 'a'] });
    expect(response.diagnostics).toEqual([]);
    expect(value(response.upgraded_state, v2Schema)).toEqual(thing({ id: 't', name: 'old', tags: ['a', 'b'] }));
  });

  it('decodes a state of the current version as it is, without an upgrade', async () => {
    const response = await upgrade(2, { id: 't', name: 'a', tags: ['y', 'x'] });
    expect(value(response.upgraded_state, v2Schema)).toEqual(thing({ id: 't', name: 'a', tags: ['y', 'x'] }));
  });

  it('reports an upgrade\'s error and returns no state', async () => {
    const response = await upgrade(1, { id: 'broken' });
    expect(response.diagnostics.map((d: any) => d.summary)).toEqual(['Cannot upgrade']);
    expect(response.upgraded_state).toBeUndefined();
  });

  it('refuses a version below the current one that has no upgrade', async () => {
    const withoutV0 = { ...provider, resources: [{ ...upgraded, stateUpgrades: { 1: upgraded.stateUpgrades![1]! } }] } as ProviderDefinition<DemoContext>;
    const response = (await new ProviderService(withoutV0, logger).handlers().UpgradeResourceState!({ type_name: 'demo_thing', version: 0, raw_state: { json: Buffer.from('{}') } })) as any;
    expect(response.diagnostics[0].summary).toBe('Resource state too old');
  });

  it('reports an upgrade declared for the current version or with another version\'s schema as a provider bug', async () => {
    const wrong = { ...provider, resources: [{ ...upgraded, stateUpgrades: { 2: { priorSchema: v2Schema, upgrade: (s: ObjectValue) => s }, 1: { priorSchema: v0Schema, upgrade: (s: ObjectValue) => s } } }] } as ProviderDefinition<DemoContext>;
    const response = (await new ProviderService(wrong, logger).handlers().GetProviderSchema!({})) as any;
    const details = response.diagnostics.map((d: any) => `${d.summary}: ${d.detail}`);
    // Integer keys come in ascending order.
    expect(details).toEqual([
      expect.stringContaining('demo_thing: the state upgrade from version 1 describes schema version 0'),
      expect.stringContaining('demo_thing: a state upgrade from version 2 must start below the schema version 2'),
    ]);
  });
});

describe('ReadDataSource', () => {
  it('reads through the data source and reports a missing object against its id', async () => {
    const call = await configured();
    const dataSchema = demoProvider.dataSources[0]!.schema;
    const missing = (await call('ReadDataSource', { type_name: 'demo_thing', config: dv({ id: 'x', name: null }, dataSchema) })) as any;
    expect(missing.diagnostics[0]).toMatchObject({ summary: 'Thing not found', attribute: { steps: [{ attribute_name: 'id' }] } });
  });
});
