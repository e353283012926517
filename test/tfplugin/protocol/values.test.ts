import { readMsgpack, MsgpackWriter } from '../../../src/tfplugin/protocol/msgpack';
import type { TerraformType, TerraformValue } from '../../../src/tfplugin/protocol/terraform-type';
import { parseTerraformType } from '../../../src/tfplugin/protocol/terraform-type';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import {
  decodeJsonValue,
  decodeMsgpackValue,
  encodeMsgpackValue,
  ValueCodecError,
} from '../../../src/tfplugin/protocol/values';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

const thing: TerraformType = [
  'object',
  {
    name: 'string',
    size: 'number',
    enabled: 'bool',
    tags: ['set', 'string'],
    ports: ['list', 'number'],
    labels: ['map', ['list', 'string']],
    owner: ['object', { email: 'string', admin: 'bool' }],
  },
];

describe('msgpack value codec', () => {
  describe('null and unknown', () => {
    it('decodes nil as null and fixext1 type 0 as UNKNOWN, never confusing the two', () => {
      expect(decodeMsgpackValue(hex('c0'), 'string')).toBeNull();
      expect(decodeMsgpackValue(hex('d4 00 00'), 'string')).toBe(UNKNOWN);
    });

    it('decodes a refined unknown (extension type 12) as UNKNOWN', () => {
      // Terraform's refined unknown: ext type 12 carrying a msgpack map of refinements.
      const refinement = hex('c7 04 0c 81 01 a1 61'); // ext8, 4 bytes, type 12, {1: "a"}
      expect(decodeMsgpackValue(refinement, 'string')).toBe(UNKNOWN);
      const inObject = Buffer.concat([hex('81 a4 6e 61 6d 65'), refinement]); // {"name": <ext 12>}
      expect(decodeMsgpackValue(inObject, ['object', { name: 'string' }])).toEqual({ name: UNKNOWN });
    });

    it.each([
      ['fixext1 type 5', 'd4 05 00'],
      ['fixext2', 'd5 01 00 00'],
      ['fixext4', 'd6 7f 00 00 00 00'],
      ['fixext8', 'd7 02 00 00 00 00 00 00 00 00'],
      ['fixext16', 'd8 03' + ' 00'.repeat(16)],
      ['ext8 with a negative type', 'c7 02 ff 00 00'],
      ['ext16', 'c8 00 01 0c 00'],
      ['ext32', 'c9 00 00 00 01 0c 00'],
    ])('decodes any extension (%s) as UNKNOWN', (_name, bytes) => {
      expect(decodeMsgpackValue(hex(bytes), ['list', 'string'])).toBe(UNKNOWN);
    });

    it('encodes UNKNOWN only as d4 00 00 and null as c0', () => {
      expect(encodeMsgpackValue(UNKNOWN, 'string')).toEqual(hex('d4 00 00'));
      expect(encodeMsgpackValue(UNKNOWN, ['set', 'string'])).toEqual(hex('d4 00 00'));
      expect(encodeMsgpackValue(null, 'number')).toEqual(hex('c0'));
    });

    it('decodes empty bytes (an absent DynamicValue) as null', () => {
      expect(decodeMsgpackValue(Buffer.alloc(0), thing)).toBeNull();
      expect(decodeMsgpackValue(undefined, thing)).toBeNull();
    });
  });

  describe('every attribute type', () => {
    const cases: [string, TerraformType, TerraformValue][] = [
      ['string', 'string', 'héllo'],
      ['long string', 'string', 'x'.repeat(70_000)],
      ['integer', 'number', 42],
      ['negative integer', 'number', -1_000_000],
      ['large integer', 'number', 2 ** 40],
      ['float', 'number', 3.25],
      ['bool', 'bool', false],
      ['set of string', ['set', 'string'], ['a', 'b']],
      ['list of number', ['list', 'number'], [1, 2.5, -3]],
      ['map of list of string', ['map', ['list', 'string']], { a: ['x'], b: [] }],
      ['object', ['object', { a: 'string', b: ['list', 'bool'] }], { a: 'x', b: [true] }],
      ['list with unknown element', ['list', 'string'], ['a', UNKNOWN, null]],
    ];

    it.each(cases)('round-trips a %s', (_name, type, value) => {
      expect(decodeMsgpackValue(encodeMsgpackValue(value, type), type)).toEqual(value);
    });

    it('round-trips a whole object with unknowns and nulls in place', () => {
      const value: TerraformValue = {
        name: 'alpha',
        size: UNKNOWN,
        enabled: null,
        tags: ['x'],
        ports: [80, 443],
        labels: { team: ['a', 'b'] },
        owner: { email: 'a@example.com', admin: UNKNOWN },
      };
      expect(decodeMsgpackValue(encodeMsgpackValue(value, thing), thing)).toEqual(value);
    });

    it('fills attributes missing from an object with null when encoding', () => {
      const encoded = encodeMsgpackValue({ name: 'alpha' }, thing);
      const raw = readMsgpack(encoded) as Record<string, unknown>;
      expect(Object.keys(raw).sort()).toEqual(['enabled', 'labels', 'name', 'owner', 'ports', 'size', 'tags']);
      expect(raw.size).toBeNull();
    });

    it('fills attributes missing from a decoded object with null', () => {
      const writer = new MsgpackWriter();
      writer.mapHeader(1);
      writer.string('name');
      writer.string('alpha');
      const value = decodeMsgpackValue(writer.toBuffer(), thing) as Record<string, TerraformValue>;
      expect(value).toEqual({ name: 'alpha', size: null, enabled: null, tags: null, ports: null, labels: null, owner: null });
    });

    it('reads numbers Terraform sends as ints, floats, float32 or decimal strings', () => {
      expect(decodeMsgpackValue(hex('cc ff'), 'number')).toBe(255);
      expect(decodeMsgpackValue(hex('d0 80'), 'number')).toBe(-128);
      expect(decodeMsgpackValue(hex('cf 00 00 01 00 00 00 00 00'), 'number')).toBe(2 ** 40);
      expect(decodeMsgpackValue(hex('d3 ff ff ff ff ff ff ff fe'), 'number')).toBe(-2);
      expect(decodeMsgpackValue(hex('ca 3f c0 00 00'), 'number')).toBe(1.5);
      expect(decodeMsgpackValue(hex('cb 40 09 21 fb 54 44 2d 18'), 'number')).toBeCloseTo(Math.PI);
      expect(decodeMsgpackValue(encodeMsgpackValue('1e3', 'string'), 'number')).toBe(1000);
    });

    it('encodes integers as msgpack ints and fractions as float64', () => {
      expect(encodeMsgpackValue(7, 'number')).toEqual(hex('07'));
      expect(encodeMsgpackValue(-5, 'number')).toEqual(hex('fb'));
      expect(encodeMsgpackValue(300, 'number')[0]).toBe(0xcf);
      expect(encodeMsgpackValue(0.5, 'number')).toEqual(hex('cb 3f e0 00 00 00 00 00 00'));
    });

    it('keeps a map key named __proto__ as data', () => {
      const type: TerraformType = ['map', 'string'];
      const value = decodeMsgpackValue(encodeMsgpackValue(JSON.parse('{"__proto__":"x"}'), type), type) as object;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(['__proto__']);
    });
  });

  describe('bad input', () => {
    it('rejects a value of the wrong type with the path of the problem', () => {
      expect(() => encodeMsgpackValue({ name: 5 } as never, thing)).toThrow(new ValueCodecError('expected a string, got number', 'name'));
      expect(() => encodeMsgpackValue({ owner: { email: true } } as never, thing)).toThrow('owner.email: expected a string');
      expect(() => decodeMsgpackValue(encodeMsgpackValue(['a'], ['list', 'string']), 'string')).toThrow(ValueCodecError);
    });

    it('rejects attributes the type does not have', () => {
      expect(() => encodeMsgpackValue({ nope: 'x' } as never, thing)).toThrow('unexpected attribute "nope"');
    });

    it('rejects truncated and trailing bytes', () => {
      expect(() => decodeMsgpackValue(hex('a5 61 62'), 'string')).toThrow('truncated');
      expect(() => decodeMsgpackValue(hex('c0 c0'), 'string')).toThrow('trailing');
      expect(() => decodeMsgpackValue(hex('c1'), 'string')).toThrow('invalid msgpack byte 0xc1');
    });

    it('refuses to encode NaN and infinities', () => {
      expect(() => encodeMsgpackValue(Number.NaN, 'number')).toThrow('finite');
      expect(() => encodeMsgpackValue(Number.POSITIVE_INFINITY, 'number')).toThrow('finite');
    });
  });
});

describe('JSON state decoding', () => {
  it('decodes stored JSON state into a typed value that re-encodes to msgpack', () => {
    const json = JSON.parse('{"name":"alpha","size":3,"tags":["x"],"labels":{"team":["a"]},"owner":null,"removed_attr":1}');
    const value = decodeJsonValue(json, thing);
    expect(value).toEqual({ name: 'alpha', size: 3, enabled: null, tags: ['x'], ports: null, labels: { team: ['a'] }, owner: null });
    expect(decodeMsgpackValue(encodeMsgpackValue(value, thing), thing)).toEqual(value);
  });

  it('rejects JSON state of the wrong type', () => {
    expect(() => decodeJsonValue({ name: ['x'] }, thing)).toThrow('name: expected a string, got an array');
  });
});

describe('parseTerraformType', () => {
  it('accepts the type constraints a schema carries', () => {
    expect(parseTerraformType(JSON.parse('["map",["list","string"]]'))).toEqual(['map', ['list', 'string']]);
    expect(parseTerraformType(JSON.parse('["object",{"a":"bool"}]'))).toEqual(['object', { a: 'bool' }]);
  });

  it('rejects unsupported types', () => {
    expect(() => parseTerraformType('dynamic')).toThrow('unsupported Terraform type "dynamic"');
    expect(() => parseTerraformType(['tuple', ['string']])).toThrow('unsupported');
  });
});
