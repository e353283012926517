import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { status as GrpcCode } from '@grpc/grpc-js';
import { generateCertificate } from '../../../src/tfplugin/protocol/certificate';
import { createJsonLogger } from '../../../src/tfplugin/protocol/log';
import {
  checkPluginEnvironment,
  handshakeLine,
  HandshakeError,
  MAGIC_COOKIE_VALUE,
  pluginPortRange,
  pluginTransport,
  rawBase64,
  startPluginServer,
  type PluginServer,
  type PluginServerOptions,
} from '../../../src/tfplugin/protocol/plugin-server';
import { parseHandshake, TestClient } from './grpc-test-client';

const silentLogger = createJsonLogger({ module: 'test', level: 'off' });

describe('the handshake line', () => {
  it('carries the certificate as unpadded base64 for DER lengths of every remainder mod 3', () => {
    const remainders = new Set<number>();
    for (let i = 0; i < 200 && remainders.size < 3; i++) {
      const { der } = generateCertificate();
      remainders.add(der.length % 3);
      const line = handshakeLine('/tmp/x/plugin.sock', der);
      const { certificate } = parseHandshake(line);
      expect(certificate).not.toContain('=');
      expect(certificate).toMatch(/^[A-Za-z0-9+/]+$/);
      expect(Buffer.from(certificate, 'base64')).toEqual(der);
      expect(new X509Certificate(Buffer.from(certificate, 'base64')).subjectAltName).toBe('DNS:localhost');
    }
    expect([...remainders].sort()).toEqual([0, 1, 2]);
  });

  it('has the form 1|6|unix|PATH|grpc|CERT', () => {
    expect(handshakeLine('/tmp/p/plugin.sock', Buffer.from([1, 2, 3, 4]))).toBe('1|6|unix|/tmp/p/plugin.sock|grpc|AQIDBA');
    expect(rawBase64(Buffer.from([0xff]))).toBe('/w');
  });
});

describe('checkPluginEnvironment', () => {
  it('refuses to run without the magic cookie, with a message for a human', () => {
    expect(() => checkPluginEnvironment({})).toThrow(HandshakeError);
    expect(() => checkPluginEnvironment({ TF_PLUGIN_MAGIC_COOKIE: 'wrong' })).toThrow('This binary is a plugin');
  });

  it('refuses when Terraform offers no protocol version 6', () => {
    expect(() => checkPluginEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5' })).toThrow(
      'speaks only version 6',
    );
    expect(() => checkPluginEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5,6' })).not.toThrow();
  });
});

describe('a bundled provider run by hand', () => {
  let dir: string;
  let executable: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plugin-bundle-'));
    executable = join(dir, 'provider.js');
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(__dirname, '../../../scripts/build-provider.mjs'), join(__dirname, '../framework/fixtures/demo-main.ts'), '--out', executable],
        (error, _stdout, stderr) => (error ? reject(new Error(`build failed: ${stderr}`)) : resolve()),
      ),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits with status 1 and explains itself on stderr, writing nothing to stdout (not even stray console.log)', async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(executable, [], { env: { PATH: process.env.PATH, DEMO_PROVIDER_CHATTY: '1' } }, (error, stdout, stderr) =>
        resolve({ code: error ? (error as { code?: number }).code ?? null : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('This binary is a plugin. These are not meant to be executed directly.');
    expect(result.stderr).toContain('demo provider module loaded');
  });
});

describe('a bundled provider started with the handshake environment', () => {
  let dir: string;
  let executable: string;
  let socketTmp: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plugin-signals-'));
    executable = join(dir, 'provider.js');
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(__dirname, '../../../scripts/build-provider.mjs'), join(__dirname, '../framework/fixtures/demo-main.ts'), '--out', executable],
        (error, _stdout, stderr) => (error ? reject(new Error(`build failed: ${stderr}`)) : resolve()),
      ),
    );
  });

  beforeEach(() => {
    socketTmp = mkdtempSync(join(tmpdir(), 'plugin-sockets-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => rmSync(socketTmp, { recursive: true, force: true }));

  it('ignores SIGINT, exits 0 on SIGTERM right after the handshake and removes its socket', async () => {
    const child = spawn(executable, [], {
      env: {
        PATH: process.env.PATH,
        TMPDIR: socketTmp,
        TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '5,6',
        PLUGIN_CLIENT_CERT: generateCertificate().certPem,
        // The SIGINT handler logs at debug level: the test waits for that line instead of a timer.
        TF_LOG_PROVIDER: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logged = '';
    const interruptHandled = new Promise<void>((resolve) =>
      child.stderr!.on('data', (chunk) => {
        logged += chunk;
        if (logged.includes('ignoring SIGINT')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout!.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(text);
      });
    });
    const { address } = parseHandshake(line);
    expect(address.startsWith(socketTmp)).toBe(true);
    expect(existsSync(address)).toBe(true);
    child.kill('SIGINT');
    // The handler ran (so the signal was delivered and handled), and the process is still there.
    await interruptHandled;
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readdirSync(socketTmp)).toEqual([]);
  });
});

describe('startPluginServer', () => {
  const clientCertificate = generateCertificate();
  let server: PluginServer | undefined;
  let client: TestClient | undefined;
  let exitCodes: number[];
  let lines: string[];
  /** Resolves with the first exit code the server asks for. */
  let exited: Promise<number>;

  async function start(env: NodeJS.ProcessEnv, options: Partial<PluginServerOptions> = {}): Promise<PluginServer> {
    exitCodes = [];
    lines = [];
    let onExit: (code: number) => void = () => undefined;
    exited = new Promise<number>((resolve) => (onExit = resolve));
    server = await startPluginServer({
      env: { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5,6', ...env },
      logger: silentLogger,
      writeHandshake: (line) => lines.push(line),
      exit: (code) => {
        exitCodes.push(code);
        onExit(code);
      },
      register: () => undefined,
      ...options,
    });
    return server;
  }

  afterEach(async () => {
    client?.close();
    client = undefined;
    if (server && exitCodes.length === 0) await server.shutdown();
    server = undefined;
  });

  it('writes exactly one handshake line naming a unix socket and the TLS certificate', async () => {
    const started = await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/]+\n$/);
    expect(parseHandshake(lines[0]!).address).toBe(started.address);
    expect(existsSync(started.address)).toBe(true);
    expect(started.tls).toBe(true);
  });

  it('answers the gRPC health check over mutual TLS', async () => {
    await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    client = new TestClient(parseHandshake(lines[0]!), clientCertificate);
    await expect(client.call('grpc.health.v1.Health', 'Check', { service: 'plugin' })).resolves.toEqual({ status: 'SERVING' });
  });

  it('rejects a client whose certificate is not the one in PLUGIN_CLIENT_CERT', async () => {
    await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    client = new TestClient(parseHandshake(lines[0]!), generateCertificate());
    await expect(client.call('grpc.health.v1.Health', 'Check', {}, 2000)).rejects.toMatchObject({ code: GrpcCode.UNAVAILABLE });
  });

  it('rejects a client without a certificate', async () => {
    await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    client = new TestClient(parseHandshake(lines[0]!));
    await expect(client.call('grpc.health.v1.Health', 'Check', {}, 2000)).rejects.toMatchObject({ code: GrpcCode.UNAVAILABLE });
  });

  it('answers UNIMPLEMENTED for a method it does not serve', async () => {
    await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    client = new TestClient(parseHandshake(lines[0]!), clientCertificate);
    await expect(client.call('plugin.GRPCBroker', 'StartStream', {})).rejects.toMatchObject({ code: GrpcCode.UNIMPLEMENTED });
  });

  it('replies to GRPCController/Shutdown, then closes, removes the socket and exits with 0', async () => {
    const started = await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    client = new TestClient(parseHandshake(lines[0]!), clientCertificate);
    await expect(client.call('plugin.GRPCController', 'Shutdown', {})).resolves.toEqual({});
    expect(await exited).toBe(0);
    expect(exitCodes).toEqual([0]);
    expect(existsSync(started.address)).toBe(false);
  });

  it('with exitOnShutdown, exits with 0 right after the Shutdown reply, without closing first', async () => {
    const hooks: string[] = [];
    const started = await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem }, { exitOnShutdown: true, beforeShutdown: async () => void hooks.push('beforeShutdown') });
    client = new TestClient(parseHandshake(lines[0]!), clientCertificate);
    await expect(client.call('plugin.GRPCController', 'Shutdown', {})).resolves.toEqual({});
    expect(await exited).toBe(0);
    expect(exitCodes).toEqual([0]);
    // Nothing was closed before the exit: the connection still answers (the kernel closes it at exit).
    expect(hooks).toEqual([]);
    await expect(client.call('grpc.health.v1.Health', 'Check', {})).resolves.toEqual({ status: 'SERVING' });
    expect(existsSync(started.address)).toBe(true);
    await started.shutdown();
  });

  it('speaks cleartext when TF_DISABLE_PLUGIN_TLS is set (test knob), with an empty certificate field', async () => {
    await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem, TF_DISABLE_PLUGIN_TLS: '1' });
    expect(lines[0]).toMatch(/\|grpc\|\n$/);
    client = new TestClient(parseHandshake(lines[0]!));
    await expect(client.call('grpc.health.v1.Health', 'Check', {})).resolves.toEqual({ status: 'SERVING' });
  });

  describe('over TCP (Windows, or TFPLUGIN_TRANSPORT=tcp)', () => {
    const blockers: Server[] = [];
    afterEach(async () => {
      for (const blocker of blockers.splice(0)) await new Promise((resolveClose) => blocker.close(resolveClose));
    });

    /** Listens on `port` of 127.0.0.1 (0: any free one); answers the server, or undefined when the port is taken. */
    async function tryListen(port: number): Promise<Server | undefined> {
      const probe = createNetServer();
      return new Promise((resolveListen) => {
        probe.once('error', () => resolveListen(undefined));
        probe.listen(port, '127.0.0.1', () => resolveListen(probe));
      });
    }

    /**
     * A port P of 127.0.0.1 such that P and P + 1 were both free when asked (the tests use both).
     * Both are checked: the next port of a free one lies in the ephemeral range too, where another
     * process may hold it at any time.
     */
    async function freePorts(): Promise<number> {
      for (;;) {
        const first = (await tryListen(0))!;
        const port = (first.address() as AddressInfo).port;
        const second = port < 65535 ? await tryListen(port + 1) : undefined;
        await new Promise((resolveClose) => first.close(resolveClose));
        if (second === undefined) continue;
        await new Promise((resolveClose) => second.close(resolveClose));
        return port;
      }
    }

    it('listens on 127.0.0.1 within PLUGIN_MIN_PORT..PLUGIN_MAX_PORT, names it in the handshake and pins the client certificate', async () => {
      const port = await freePorts();
      const started = await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem, TFPLUGIN_TRANSPORT: 'tcp', PLUGIN_MIN_PORT: String(port), PLUGIN_MAX_PORT: String(port + 1) });
      expect(lines[0]).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+\n$/);
      expect(started.transport).toBe('tcp');
      expect(parseHandshake(lines[0]!).address).toBe(started.address);
      expect([`127.0.0.1:${port}`, `127.0.0.1:${port + 1}`]).toContain(started.address);
      client = new TestClient(parseHandshake(lines[0]!), clientCertificate);
      await expect(client.call('grpc.health.v1.Health', 'Check', { service: 'plugin' })).resolves.toEqual({ status: 'SERVING' });
      client.close();
      client = new TestClient(parseHandshake(lines[0]!), generateCertificate());
      await expect(client.call('grpc.health.v1.Health', 'Check', {}, 2000)).rejects.toMatchObject({ code: GrpcCode.UNAVAILABLE });
    });

    it('goes on to the next port when one is taken, as go-plugin does', async () => {
      const port = await freePorts();
      const blocker = createNetServer();
      blockers.push(blocker);
      await new Promise<void>((resolveListen) => blocker.listen(port, '127.0.0.1', resolveListen));
      const started = await start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem, TFPLUGIN_TRANSPORT: 'tcp', PLUGIN_MIN_PORT: String(port), PLUGIN_MAX_PORT: String(port + 1) });
      expect(started.address).toBe(`127.0.0.1:${port + 1}`);
    });

    it('says so when every port of the range is taken, and prints no handshake', async () => {
      const port = await freePorts();
      const blocker = createNetServer();
      blockers.push(blocker);
      await new Promise<void>((resolveListen) => blocker.listen(port, '127.0.0.1', resolveListen));
      await expect(
        start({ PLUGIN_CLIENT_CERT: clientCertificate.certPem, TFPLUGIN_TRANSPORT: 'tcp', PLUGIN_MIN_PORT: String(port), PLUGIN_MAX_PORT: String(port) }),
      ).rejects.toThrow(new HandshakeError(`no free TCP port on 127.0.0.1 from PLUGIN_MIN_PORT (${port}) to PLUGIN_MAX_PORT (${port}).`));
      expect(lines).toEqual([]);
      server = undefined;
    });
  });

  it('refuses to start without the magic cookie', async () => {
    await expect(
      startPluginServer({ env: {}, logger: silentLogger, writeHandshake: () => undefined, register: () => undefined }),
    ).rejects.toThrow(HandshakeError);
  });
});

describe('pluginTransport', () => {
  it('is TCP on Windows whatever the environment, as go-plugin is there', () => {
    expect(pluginTransport({}, 'win32')).toBe('tcp');
    expect(pluginTransport({ TFPLUGIN_TRANSPORT: 'unix' }, 'win32')).toBe('tcp');
  });

  it('is a unix socket elsewhere unless TFPLUGIN_TRANSPORT=tcp', () => {
    expect(pluginTransport({}, 'linux')).toBe('unix');
    expect(pluginTransport({ TFPLUGIN_TRANSPORT: '' }, 'darwin')).toBe('unix');
    expect(pluginTransport({ TFPLUGIN_TRANSPORT: 'tcp' }, 'linux')).toBe('tcp');
  });

  it('names the variable for any other value', () => {
    expect(() => pluginTransport({ TFPLUGIN_TRANSPORT: 'udp' }, 'linux')).toThrow(new HandshakeError('TFPLUGIN_TRANSPORT is "udp": use tcp or unix.'));
  });
});

describe('pluginPortRange', () => {
  it('reads both bounds; an unset bound is 0, as go-plugin reads it', () => {
    expect(pluginPortRange({ PLUGIN_MIN_PORT: '10000', PLUGIN_MAX_PORT: '25000' })).toEqual({ min: 10000, max: 25000 });
    expect(pluginPortRange({})).toEqual({ min: 0, max: 0 });
  });

  it('refuses what is not a port and an empty range', () => {
    expect(() => pluginPortRange({ PLUGIN_MIN_PORT: 'ten', PLUGIN_MAX_PORT: '20' })).toThrow('PLUGIN_MIN_PORT is "ten", not a port number.');
    expect(() => pluginPortRange({ PLUGIN_MIN_PORT: '1', PLUGIN_MAX_PORT: '70000' })).toThrow('PLUGIN_MAX_PORT is "70000", not a port number.');
    expect(() => pluginPortRange({ PLUGIN_MIN_PORT: '20', PLUGIN_MAX_PORT: '10' })).toThrow('PLUGIN_MIN_PORT (20) is greater than PLUGIN_MAX_PORT (10).');
  });
});
