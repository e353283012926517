import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { PROTO_FILES, PROTOCOL_DESCRIPTOR } from '../../../src/tfplugin/protocol/descriptor';
import { ProtoCodec } from '../../../src/tfplugin/protocol/protobuf';

const protoDir = join(__dirname, '../../../src/tfplugin/protocol/proto');

function loadProtobufJs(): protobuf.Root {
  const root = new protobuf.Root();
  root.loadSync(PROTO_FILES.map((file) => join(protoDir, file)), { keepCase: true });
  return root;
}

describe('the protocol descriptor', () => {
  it('matches the .proto files (regenerate with `npm run build:provider -- --descriptor`)', () => {
    expect(JSON.parse(JSON.stringify(loadProtobufJs().toJSON()))).toEqual(PROTOCOL_DESCRIPTOR);
  });

  it('declares every RPC of tfplugin6.Provider that Terraform 1.11 and 1.12 call', () => {
    const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);
    expect(Object.keys(codec.service('tfplugin6.Provider')).sort()).toEqual(
      [
        'ApplyResourceChange', 'CallFunction', 'CloseEphemeralResource', 'ConfigureProvider', 'GetFunctions',
        'GetMetadata', 'GetProviderSchema', 'GetResourceIdentitySchemas', 'ImportResourceState', 'MoveResourceState',
        'OpenEphemeralResource', 'PlanResourceChange', 'ReadDataSource', 'ReadResource', 'RenewEphemeralResource',
        'StopProvider', 'UpgradeResourceIdentity', 'UpgradeResourceState', 'ValidateDataResourceConfig',
        'ValidateEphemeralResourceConfig', 'ValidateProviderConfig', 'ValidateResourceConfig',
      ].sort(),
    );
  });
});

describe('ProtoCodec', () => {
  const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);
  const reference = loadProtobufJs();

  it('decodes what protobufjs encodes: nested messages, maps, enums, bytes, oneofs, repeated', () => {
    const type = reference.lookupType('tfplugin6.GetProviderSchema.Response');
    const message = {
      provider: { version: 2, block: { attributes: [{ name: 'a', type: Buffer.from('"string"'), required: true, description_kind: 1 }] } },
      resource_schemas: { x_thing: { version: 0, block: { description: 'Thing', deprecated: true } } },
      diagnostics: [{ severity: 2, summary: 's', attribute: { steps: [{ attribute_name: 'a' }, { element_key_int: 0 }, { element_key_string: '' }] } }],
      server_capabilities: { plan_destroy: true },
    };
    const decoded = codec.decode('tfplugin6.GetProviderSchema.Response', type.encode(type.fromObject(message)).finish());
    expect(decoded.provider).toMatchObject({ version: 2, block: { attributes: [{ name: 'a', required: true, description_kind: 'MARKDOWN' }] } });
    expect(((decoded.provider as any).block.attributes[0].type as Buffer).toString()).toBe('"string"');
    expect((decoded.resource_schemas as any).x_thing.block).toMatchObject({ description: 'Thing', deprecated: true, attributes: [] });
    expect((decoded.diagnostics as any)[0]).toMatchObject({ severity: 'WARNING', summary: 's', detail: '' });
    // Oneof members keep presence, so index 0 and the empty key are still there.
    expect((decoded.diagnostics as any)[0].attribute.steps).toEqual([{ attribute_name: 'a' }, { element_key_int: 0 }, { element_key_string: '' }]);
    expect(decoded.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: false });
    expect(decoded.data_source_schemas).toEqual({});
  });

  it('encodes what protobufjs decodes', () => {
    const encoded = codec.encode('tfplugin6.PlanResourceChange.Response', {
      planned_state: { msgpack: Buffer.from([0xc0]) },
      requires_replace: [{ steps: [{ attribute_name: 'name' }, { element_key_int: 0 }] }],
      planned_private: Buffer.from('p'),
      diagnostics: [{ severity: 'ERROR', summary: 'bad', detail: 'very' }],
    });
    const type = reference.lookupType('tfplugin6.PlanResourceChange.Response');
    const decoded = type.toObject(type.decode(encoded), { enums: String, bytes: Array, longs: Number }) as any;
    expect(decoded.planned_state.msgpack).toEqual([0xc0]);
    expect(decoded.requires_replace[0].steps).toEqual([{ attribute_name: 'name' }, { element_key_int: 0 }]);
    expect(decoded.diagnostics).toEqual([{ severity: 'ERROR', summary: 'bad', detail: 'very' }]);
    expect(decoded.planned_private).toEqual([0x70]);
  });

  it('round-trips negative int64 values and proto3 optional fields set to defaults', () => {
    const encoded = codec.encode('tfplugin6.FunctionError', { text: '', function_argument: 0 });
    expect(codec.decode('tfplugin6.FunctionError', encoded)).toEqual({ text: '', function_argument: 0 });
    expect(codec.decode('tfplugin6.FunctionError', codec.encode('tfplugin6.FunctionError', {}))).toEqual({ text: '' });
    const negative = codec.encode('tfplugin6.Schema', { version: -3 });
    const type = reference.lookupType('tfplugin6.Schema');
    expect((type.toObject(type.decode(negative), { longs: Number }) as any).version).toBe(-3);
    expect(codec.decode('tfplugin6.Schema', negative).version).toBe(-3);
  });

  it('skips fields it does not know (a newer Terraform may send more)', () => {
    // field 99, length-delimited "hi", then type_name = "x"
    const bytes = Buffer.from([0x9a, 0x06, 0x02, 0x68, 0x69, 0x0a, 0x01, 0x78]);
    expect(codec.decode('tfplugin6.ValidateResourceConfig.Request', bytes)).toMatchObject({ type_name: 'x' });
  });

  it('rejects truncated input', () => {
    expect(() => codec.decode('tfplugin6.ValidateResourceConfig.Request', Buffer.from([0x0a, 0x05, 0x78]))).toThrow('truncated');
  });

  it('refuses unknown enum names and unknown types', () => {
    expect(() => codec.encode('tfplugin6.Diagnostic', { severity: 'FATAL' })).toThrow('FATAL is not a value of tfplugin6.Diagnostic.Severity');
    expect(() => codec.encode('tfplugin6.Nope', {})).toThrow('no message tfplugin6.Nope');
  });
});
