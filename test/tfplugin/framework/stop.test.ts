/**
 * Cancellation through the provider service: StopProvider and a cancelled call abort the signal
 * resources get as `req.signal`; after StopProvider new calls are refused. Also the partial-state
 * rule of apply: a state returned with errors is sent back.
 */
import { ProviderService, type ProviderHandlers } from '../../../src/tfplugin/framework/provider-service';
import { serveProvider } from '../../../src/tfplugin/framework/serve';
import { schemaObjectType } from '../../../src/tfplugin/framework/schema';
import { ProviderStoppingError, StopController, STOPPING_SUMMARY } from '../../../src/tfplugin/framework/stop';
import type { DataSource, ObjectValue, ProviderDefinition, Resource, Schema } from '../../../src/tfplugin/framework/types';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import { MAGIC_COOKIE_VALUE } from '../../../src/tfplugin/protocol/plugin-server';
import { decodeMsgpackValue, encodeMsgpackValue } from '../../../src/tfplugin/protocol/values';
import { parseHandshake, TestClient } from '../protocol/grpc-test-client';

const logLines: string[] = [];
const logger = createJsonLogger({ module: 'test', level: 'debug', write: (line) => logLines.push(line) });

const schema: Schema = {
  description: 'A widget.',
  attributes: {
    id: { type: 'string', description: 'Id.', computed: true, useStateForUnknown: true },
    name: { type: 'string', description: 'Name.', required: true },
    step: { type: 'string', description: 'How far creation got.', computed: true },
  },
};
const providerSchema: Schema = { description: 'Test provider.', attributes: {} };

const dv = (value: ObjectValue | null, of: Schema = schema): { msgpack: Buffer } => ({ msgpack: encodeMsgpackValue(value, schemaObjectType(of)) });
const decode = (value: { msgpack?: Buffer } | undefined, of: Schema = schema): unknown => decodeMsgpackValue(value?.msgpack, schemaObjectType(of));

/** A resolved-on-demand promise: lets a test hold a resource method open without sleeping. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves when `signal` aborts, then rethrows its reason (what an aborted fetch does). */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) throw new Error('the framework passed no signal');
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

interface Recorder {
  signals: Record<string, AbortSignal | undefined>;
  started: Record<string, ReturnType<typeof gate>>;
  calls: string[];
}

function widgetProvider(behaviour: Partial<Resource<Recorder>> = {}): { definition: ProviderDefinition<Recorder>; recorder: Recorder } {
  const recorder: Recorder = { signals: {}, started: {}, calls: [] };
  for (const name of ['create', 'read', 'update', 'delete', 'importState', 'modifyPlan', 'data.read']) recorder.started[name] = gate();
  const seen = (name: string, signal: AbortSignal | undefined): void => {
    recorder.calls.push(name);
    recorder.signals[name] = signal;
    recorder.started[name]!.open();
  };
  const resource: Resource<Recorder> = {
    typeName: 'test_widget',
    schema,
    modifyPlan: (_ctx, req) => seen('modifyPlan', req.signal),
    async create(_ctx, req) {
      seen('create', req.signal);
      return { ...req.plannedState, id: 'w-1', step: 'done' };
    },
    async read(_ctx, req) {
      seen('read', req.signal);
      return req.state;
    },
    async update(_ctx, req) {
      seen('update', req.signal);
      return req.plannedState;
    },
    async delete(_ctx, req) {
      seen('delete', req.signal);
    },
    async importState(_ctx, req) {
      seen('importState', req.signal);
      return { id: req.id, name: 'imported', step: 'done' };
    },
    ...behaviour,
  };
  const dataSource: DataSource<Recorder> = {
    typeName: 'test_widget',
    schema,
    async read(_ctx, req) {
      seen('data.read', req.signal);
      return { id: 'w-1', name: 'n', step: 'done' };
    },
  };
  const definition: ProviderDefinition<Recorder> = {
    typeName: 'test',
    schema: providerSchema,
    configure: async () => recorder,
    resources: [resource],
    dataSources: [dataSource],
  };
  return { definition, recorder };
}

async function configured(definition: ProviderDefinition<Recorder>): Promise<ProviderHandlers> {
  const handlers = new ProviderService(definition, logger).handlers();
  expect((await handlers.ConfigureProvider({ config: dv({}, providerSchema) })).diagnostics).toEqual([]);
  return handlers;
}

const created = { id: 'w-1', name: 'a', step: 'done' };
const createRequest = { type_name: 'test_widget', prior_state: dv(null), planned_state: dv({ id: null, name: 'a', step: null }), config: dv({ id: null, name: 'a', step: null }) };

describe('StopController', () => {
  /** A call's transport as the gRPC server makes it: its own controller, abortable from above. */
  const transportCall = (): { controller: AbortController; call: { signal: AbortSignal; abort: (reason: unknown) => void } } => {
    const controller = new AbortController();
    return { controller, call: { signal: controller.signal, abort: (reason) => controller.abort(reason) } };
  };
  /** Runs a call until the test settles it; resolves with the signal the call got. */
  const holdCall = (stop: StopController, call: Parameters<StopController['run']>[0]) => {
    const held = gate();
    let signal!: AbortSignal;
    const done = stop.run(call, async (given) => {
      signal = given;
      await held.promise;
    });
    return { signal: () => signal, settle: async () => (held.open(), await done) };
  };

  it('aborts the signal of every call in flight once, with a ProviderStoppingError', async () => {
    const stop = new StopController();
    const a = transportCall();
    const first = holdCall(stop, a.call);
    const second = holdCall(stop, undefined);
    expect([first.signal().aborted, second.signal().aborted, stop.stopping]).toEqual([false, false, false]);
    stop.stop();
    stop.stop();
    expect(first.signal().reason).toBeInstanceOf(ProviderStoppingError);
    expect(second.signal().reason).toBeInstanceOf(ProviderStoppingError);
    expect(first.signal().reason).toBe(second.signal().reason);
    await first.settle();
    await second.settle();
    // Calls that start afterwards get an aborted signal.
    await stop.run(transportCall().call, async (signal) => expect(signal.reason).toBeInstanceOf(ProviderStoppingError));
  });

  it("follows each call's transport alone, with the transport's reason", async () => {
    const stop = new StopController();
    const a = transportCall();
    const b = transportCall();
    const first = holdCall(stop, a.call);
    const second = holdCall(stop, b.call);
    a.controller.abort(new Error('stream closed'));
    expect([first.signal().aborted, second.signal().aborted]).toEqual([true, false]);
    expect((first.signal().reason as Error).message).toBe('stream closed');
    await first.settle();
    await second.settle();
  });

  it('leaves a call that has ended alone when the switch trips later', async () => {
    const stop = new StopController();
    const a = transportCall();
    await stop.run(a.call, async () => undefined);
    await expect(stop.run(a.call, async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    stop.stop();
    expect(a.controller.signal.aborted).toBe(false);
  });

  it('combines the two when the transport cannot be aborted from above', async () => {
    const stop = new StopController();
    const transport = new AbortController();
    const held = holdCall(stop, { signal: transport.signal });
    expect(held.signal()).not.toBe(transport.signal);
    stop.stop();
    expect(held.signal().reason).toBeInstanceOf(ProviderStoppingError);
    expect(transport.signal.aborted).toBe(false);
    await held.settle();
  });
});

describe('the signal of each request', () => {
  it('reaches create, read, update, delete, importState, modifyPlan and the data source read', async () => {
    const { definition, recorder } = widgetProvider();
    const handlers = await configured(definition);
    const config = dv({ id: null, name: 'b', step: null });
    await handlers.PlanResourceChange({ type_name: 'test_widget', prior_state: dv(created), proposed_new_state: config, config });
    await handlers.ApplyResourceChange(createRequest);
    await handlers.ApplyResourceChange({ type_name: 'test_widget', prior_state: dv(created), planned_state: dv({ ...created, name: 'b' }), config });
    await handlers.ApplyResourceChange({ type_name: 'test_widget', prior_state: dv(created), planned_state: dv(null), config: dv(null) });
    await handlers.ReadResource({ type_name: 'test_widget', current_state: dv(created) });
    await handlers.ImportResourceState({ type_name: 'test_widget', id: 'w-9' });
    await handlers.ReadDataSource({ type_name: 'test_widget', config: dv({ id: 'w-1', name: null, step: null }) });
    expect(recorder.calls.sort()).toEqual(['create', 'data.read', 'delete', 'importState', 'modifyPlan', 'read', 'update']);
    for (const [name, signal] of Object.entries(recorder.signals)) {
      expect([name, signal instanceof AbortSignal, signal?.aborted]).toEqual([name, true, false]);
    }
  });

  it('aborts when the call is cancelled, and only that call', async () => {
    const { definition, recorder } = widgetProvider({
      async create(_ctx, req) {
        recorder.started.create!.open();
        return untilAborted(req.signal);
      },
    });
    const handlers = await configured(definition);
    const transport = new AbortController();
    const applying = handlers.ApplyResourceChange(createRequest, { signal: transport.signal });
    await recorder.started.create!.promise;
    const read = await handlers.ReadResource({ type_name: 'test_widget', current_state: dv(created) });
    expect(read.diagnostics).toEqual([]);
    transport.abort(new Error('stream closed'));
    const response = await applying;
    expect(response.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', summary: 'Request cancelled' })]);
  });
});

describe('StopProvider', () => {
  it('answers at once, aborts every call in flight, and refuses calls after it', async () => {
    const { definition, recorder } = widgetProvider({
      async create(_ctx, req) {
        recorder.started.create!.open();
        return untilAborted(req.signal);
      },
      async read(_ctx, req) {
        recorder.started.read!.open();
        return untilAborted(req.signal);
      },
    });
    const handlers = await configured(definition);
    const applying = handlers.ApplyResourceChange(createRequest);
    const reading = handlers.ReadResource({ type_name: 'test_widget', current_state: dv(created) });
    await Promise.all([recorder.started.create!.promise, recorder.started.read!.promise]);

    // Answered while both calls are still in flight: the handler does not wait for them.
    expect(await handlers.StopProvider({})).toEqual({ Error: '' });

    const [applied, read] = await Promise.all([applying, reading]);
    expect(applied.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', summary: STOPPING_SUMMARY })]);
    expect(read.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', summary: STOPPING_SUMMARY })]);
    // A read that failed keeps the state it was given.
    expect(decode(read.new_state)).toEqual(created);

    recorder.calls = [];
    const after = await Promise.all([
      handlers.ValidateResourceConfig({ type_name: 'test_widget', config: dv({ id: null, name: 'a', step: null }) }),
      handlers.ApplyResourceChange(createRequest),
      handlers.ReadDataSource({ type_name: 'test_widget', config: dv({ id: 'w-1', name: null, step: null }) }),
      handlers.ConfigureProvider({ config: dv({}, providerSchema) }),
      handlers.GetProviderSchema({}),
    ]);
    for (const response of after) {
      expect(response.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', summary: STOPPING_SUMMARY })]);
    }
    expect(recorder.calls).toEqual([]);
    expect(await handlers.StopProvider({})).toEqual({ Error: '' });
    // A stop is not a provider bug.
    expect(logLines.filter((line) => line.includes('internal error'))).toEqual([]);
  });

  it('keeps the partial state a resource returns when it gives up on the signal', async () => {
    const { definition, recorder } = widgetProvider({
      async create(_ctx, req, diags) {
        recorder.started.create!.open();
        await untilAborted(req.signal).catch(() => undefined);
        diags.error('Creation interrupted', 'The widget exists but was not finished.');
        return { ...req.plannedState, id: 'w-1', step: 'half' };
      },
    });
    const handlers = await configured(definition);
    const applying = handlers.ApplyResourceChange(createRequest);
    await recorder.started.create!.promise;
    await handlers.StopProvider({});
    const applied = await applying;
    expect(applied.diagnostics!.map((d) => d.summary)).toEqual(['Creation interrupted']);
    expect(decode(applied.new_state)).toEqual({ id: 'w-1', name: 'a', step: 'half' });
  });
});

describe('ApplyResourceChange with errors', () => {
  it('sends back the state create returned together with error diagnostics', async () => {
    const { definition } = widgetProvider({
      async create(_ctx, req, diags) {
        diags.error('Membership failed', 'The widget was created, its membership was not.');
        return { ...req.plannedState, id: 'w-1', step: 'created' };
      },
    });
    const handlers = await configured(definition);
    const applied = await handlers.ApplyResourceChange(createRequest);
    expect(applied.diagnostics!.map((d) => [d.severity, d.summary])).toEqual([['ERROR', 'Membership failed']]);
    expect(decode(applied.new_state)).toEqual({ id: 'w-1', name: 'a', step: 'created' });
  });

  it('sends back the state update returned together with error diagnostics', async () => {
    const { definition } = widgetProvider({
      async update(_ctx, req, diags) {
        diags.error('Half updated', 'The name changed, the rest did not.');
        return { ...req.priorState, name: req.plannedState.name };
      },
    });
    const handlers = await configured(definition);
    const config = dv({ id: null, name: 'b', step: null });
    const applied = await handlers.ApplyResourceChange({ type_name: 'test_widget', prior_state: dv(created), planned_state: dv({ ...created, name: 'b' }), config });
    expect(applied.diagnostics!.map((d) => d.summary)).toEqual(['Half updated']);
    expect(decode(applied.new_state)).toEqual({ id: 'w-1', name: 'b', step: 'done' });
  });

  it('keeps the prior state when update returns nothing with an error, and nothing when create does', async () => {
    const { definition } = widgetProvider({
      async update(_ctx, _req, diags) {
        diags.error('Update refused', 'Nothing changed.');
        return null;
      },
      async create(_ctx, _req, diags) {
        diags.error('Create refused', 'Nothing was created.');
        return null;
      },
    });
    const handlers = await configured(definition);
    const config = dv({ id: null, name: 'b', step: null });
    const updated = await handlers.ApplyResourceChange({ type_name: 'test_widget', prior_state: dv(created), planned_state: dv({ ...created, name: 'b' }), config });
    expect(decode(updated.new_state)).toEqual(created);
    const createdNothing = await handlers.ApplyResourceChange(createRequest);
    expect(createdNothing.diagnostics!.map((d) => d.summary)).toEqual(['Create refused']);
    expect(decode(createdNothing.new_state)).toBeNull();
  });
});

describe('StopProvider over gRPC', () => {
  it('answers while an apply is in flight, and the apply ends with the stop diagnostic', async () => {
    const { definition, recorder } = widgetProvider({
      async create(_ctx, req) {
        recorder.started.create!.open();
        return untilAborted(req.signal);
      },
    });
    let line = '';
    const exits: number[] = [];
    const serving = await serveProvider(definition, {
      env: { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', TF_DISABLE_PLUGIN_TLS: '1', TF_LOG: 'off' },
      writeHandshake: (text) => (line = text),
      exit: (code) => exits.push(code),
    });
    const client = new TestClient(parseHandshake(line));
    try {
      const configure = (await client.call('tfplugin6.Provider', 'ConfigureProvider', { config: dv({}, providerSchema) })) as { diagnostics: unknown[] };
      expect(configure.diagnostics).toEqual([]);
      const applying = client.call('tfplugin6.Provider', 'ApplyResourceChange', createRequest);
      await recorder.started.create!.promise;
      expect(await client.call('tfplugin6.Provider', 'StopProvider', {})).toEqual({ Error: '' });
      const applied = (await applying) as { diagnostics: Array<{ summary: string }> };
      expect(applied.diagnostics!.map((d) => d.summary)).toEqual([STOPPING_SUMMARY]);
    } finally {
      client.close();
      await serving!.shutdown();
    }
    expect(exits).toEqual([0]);
  });
});
