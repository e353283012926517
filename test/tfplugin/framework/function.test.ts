/**
 * Provider-defined functions through the provider service: signatures as Terraform reads them,
 * results by the return type, and Terraform's function errors with the position of the argument
 * at fault. The real terraform run is in newer-features-e2e.test.ts.
 */
import type { ProviderFunction } from '../../../src/tfplugin/framework/function';
import { ProviderService } from '../../../src/tfplugin/framework/provider-service';
import type { ProviderDefinition } from '../../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import { UNKNOWN } from '../../../src/tfplugin/protocol/unknown';
import { encodeMsgpackValue } from '../../../src/tfplugin/protocol/values';
import { ProviderHarness } from '../../../src/tfplugin/testing/harness';
import { demoProvider } from './fixtures/demo-provider';

const logLines: string[] = [];
const logger = createJsonLogger({ module: 'test', level: 'error', write: (line) => logLines.push(line) });

function withFunctions(...functions: ProviderFunction[]): ProviderDefinition<unknown> {
  return { ...demoProvider, functions } as never;
}

describe('provider-defined functions', () => {
  // Functions run on an unconfigured provider, as Terraform calls them.
  const harness = new ProviderHarness(demoProvider as never, logger);

  it('describes every function in GetFunctions and GetProviderSchema', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const functions = (await handlers.GetFunctions({})).functions!;
    expect(Object.keys(functions)).toEqual(['parse_pair', 'join_parts']);
    expect(functions.join_parts).toMatchObject({
      summary: 'Joins non-empty parts.',
      description_kind: 'MARKDOWN',
      parameters: [{ name: 'separator', allow_null_value: true, allow_unknown_values: false, description: 'Goes between parts.' }],
      variadic_parameter: { name: 'parts', allow_null_value: false },
    });
    expect(functions.parse_pair!.return!.type!.toString()).toBe('["object",{"key":"string","value":"string"}]');
    expect((await handlers.GetProviderSchema({})).functions).toEqual(functions);
  });

  it('returns the result encoded by the return type', async () => {
    expect(await harness.callFunction('parse_pair', ['region=eu=west'])).toEqual({ result: { key: 'region', value: 'eu=west' } });
    expect(await harness.callFunction('join_parts', ['/', 'a', 'b', 'c'])).toEqual({ result: 'a/b/c' });
    expect(await harness.callFunction('join_parts', [null, 'a', 'b'])).toEqual({ result: 'a-b' });
    expect(await harness.callFunction('join_parts', ['/'])).toEqual({ result: '' });
  });

  it('reports an error with the position of the argument at fault, variadic ones counted one by one', async () => {
    expect(await harness.callFunction('parse_pair', ['=x'])).toEqual({ error: { text: '"=x" is not KEY=VALUE: it needs a key before "="', argument: 0 } });
    expect(await harness.callFunction('join_parts', ['/', 'a', '', 'c', ''])).toEqual({ error: { text: 'part 2 is empty\npart 4 is empty', argument: 2 } });
  });

  it('refuses what Terraform should not send: nulls and unknowns the parameter does not allow, a wrong count', async () => {
    const handlers = new ProviderService(demoProvider, logger).handlers();
    const call = (name: string, args: Parameters<typeof encodeMsgpackValue>[0][]) =>
      handlers.CallFunction({ name, arguments: args.map((value) => ({ msgpack: encodeMsgpackValue(value, 'string') })) });
    expect(await call('parse_pair', [null])).toEqual({ error: { text: 'argument "pair" must not be null', function_argument: 0 } });
    expect((await call('join_parts', ['-', UNKNOWN])).error).toMatchObject({ function_argument: 1, text: expect.stringContaining('must be known') });
    expect(await call('parse_pair', ['a=b', 'c'])).toEqual({ error: { text: 'parse_pair takes 1 argument, but 2 were given' } });
    expect(await call('nope', [])).toEqual({ error: { text: 'this provider has no function "nope"' } });
  });

  it('turns an exception and a result of the wrong type into errors that say it is a bug', async () => {
    const thrower: ProviderFunction = { name: 'boom', summary: '', description: '', parameters: [], returnType: 'string', run: () => { throw new Error('kaput'); } };
    const wrong: ProviderFunction = { name: 'wrong', summary: '', description: '', parameters: [], returnType: 'number', run: () => 'text' };
    const unknown: ProviderFunction = { name: 'unknown', summary: '', description: '', parameters: [], returnType: 'string', run: () => UNKNOWN };
    const bugs = new ProviderHarness(withFunctions(thrower, wrong, unknown), logger);
    expect((await bugs.callFunction('boom', [])).error!.text).toBe('internal error in function boom: kaput. This is a bug in the provider; please report it');
    expect(logLines.some((line) => line.includes('internal error in function boom'))).toBe(true);
    expect((await bugs.callFunction('wrong', [])).error!.text).toMatch(/^function wrong returned a value that does not match its return type: .*This is a bug/);
    expect((await bugs.callFunction('unknown', [])).error!.text).toContain('returned an unknown value for known arguments');
  });

  it('reports badly named functions and parameters as provider bugs', async () => {
    const bad: ProviderFunction = {
      name: 'Bad-Name',
      summary: '',
      description: '',
      parameters: [{ name: 'x', type: 'string', description: '' }],
      variadicParameter: { name: 'x', type: 'string', description: '' },
      returnType: 'string',
      run: () => '',
    };
    const response = await new ProviderService(withFunctions(bad), logger).handlers().GetProviderSchema({});
    expect(response.diagnostics!.map((d) => d.detail)).toEqual([
      'function Bad-Name: function names are lower snake case. This is a bug in the provider.',
      'function Bad-Name: two parameters are named x. This is a bug in the provider.',
    ]);
  });
});
