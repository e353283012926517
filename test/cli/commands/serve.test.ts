import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { discoveryPath, orgsPath, tokenPath } from '../../../src/api';
import { BIN, childEnv, ensureBuilt } from '../compiled-cli';
import { explainStartError } from '../../../src/cli/commands/serve';
import { CliError } from '../../../src/cli/errors';
import { main } from '../../../src/cli/main';
import { captureIO } from '../capture-io';
import { createSandbox, type CliSandbox } from '../harness';

/** A running `node bin/orgadmin.js serve` and what it has printed so far. */
interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the compiled CLI's `serve` and waits for its ready line. */
async function startServe(sandbox: CliSandbox, ...flags: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', sandbox.dataFile, ...flags], { cwd: sandbox.dir, env: childEnv() });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^orgadmin listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`serve exited with ${code} before it was ready: ${err}`)));
  });
  return { child, url, stdout: () => out, stderr: () => err, exited };
}

let sandbox: CliSandbox;
let running: ServeProcess | undefined;

beforeAll(ensureBuilt, 120_000);

beforeEach(async () => {
  sandbox = createSandbox();
  await sandbox.run('realms', 'create', 'acme');
});

afterEach(async () => {
  if (running && running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  running = undefined;
  sandbox.cleanup();
});

describe('orgadmin serve (real process)', () => {
  it.each([['SIGTERM' as const], ['SIGINT' as const]])(
    'prints one ready line with the real port, then its JSON log, serves discovery, and exits 0 on %s',
    async (signal) => {
      running = await startServe(sandbox);
      const response = await fetch(`${running.url}${discoveryPath('acme')}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { issuer: string }).issuer).toBe(`${running.url}/realms/acme`);

      running.child.kill(signal);
      expect(await running.exited).toEqual({ code: 0, signal: null });
      const [ready, ...logLines] = running.stdout().trimEnd().split('\n');
      expect(ready).toBe(`orgadmin listening on ${running.url}`);
      const requests = logLines.map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number } });
      expect(requests.filter((line) => line.msg === 'request completed')).toEqual([
        expect.objectContaining({ req: expect.objectContaining({ method: 'GET', url: discoveryPath('acme') }), res: { statusCode: 200 } }),
      ]);
      expect(running.stderr()).toBe('');
    },
  );

  it('applies --rate-limit per client', async () => {
    const key = await sandbox.json<{ clientId: string; clientSecret: string }>('keys', 'create', '--realm', 'acme', '--name', 'ci', '--permissions', 'view-users');
    running = await startServe(sandbox, '--rate-limit', '1/60');
    const requestToken = () =>
      fetch(`${running!.url}${tokenPath('acme')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret }).toString(),
      });
    expect((await requestToken()).status).toBe(200);
    const limited = await requestToken();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);
  });
});

describe('orgadmin serve --public-url (in process)', () => {
  it('writes the issuer and the token endpoint from the public URL, not from the request', async () => {
    const { io, out, err, waitForOutput } = captureIO(sandbox.dir);
    const exit = main(['serve', '--port', '0', '--public-url', 'https://orgs.example.com/', '--data', sandbox.dataFile], io);
    await waitForOutput((stdout) => /listening on /.test(stdout));
    const url = /^orgadmin listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out())?.[1];
    try {
      expect(url).toBeDefined();
      const response = await fetch(`${url}${discoveryPath('acme')}`);
      expect(response.status).toBe(200);
      const discovery = (await response.json()) as { issuer: string; token_endpoint: string };
      expect(discovery.issuer).toBe('https://orgs.example.com/realms/acme');
      expect(discovery.token_endpoint).toBe(`https://orgs.example.com${tokenPath('acme')}`);
    } finally {
      // The command waits for SIGINT/SIGTERM through process listeners; emitting the event stops it.
      process.emit('SIGTERM', 'SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(err()).toBe('');
  });
});

describe('orgadmin serve --json (in process)', () => {
  it('prints exactly one ready line, a JSON object with the real URL, and serves on it', async () => {
    const { io, out, err, waitForOutput } = captureIO(sandbox.dir);
    const exit = main(['serve', '--port', '0', '--json', '--log-level', 'silent', '--data', sandbox.dataFile], io);
    await waitForOutput((stdout) => stdout.endsWith('\n'));
    let url: string | undefined;
    try {
      expect(out()).toMatch(/^\{"url":"http:\/\/127\.0\.0\.1:\d+"\}\n$/);
      url = (JSON.parse(out()) as { url: string }).url;
      const response = await fetch(`${url}${discoveryPath('acme')}`);
      expect(response.status).toBe(200);
    } finally {
      process.emit('SIGTERM', 'SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(err()).toBe('');
    expect(out()).toBe(`${JSON.stringify({ url })}\n`);
  });
});

describe('orgadmin serve --compat hosted (in process)', () => {
  it('answers errors as the hosted service does', async () => {
    const { io, out, err, waitForOutput } = captureIO(sandbox.dir);
    const exit = main(['serve', '--port', '0', '--json', '--log-level', 'silent', '--compat', 'hosted', '--data', sandbox.dataFile], io);
    await waitForOutput((stdout) => stdout.endsWith('\n'));
    try {
      const { url } = JSON.parse(out()) as { url: string };
      const response = await fetch(`${url}${orgsPath('acme')}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'HTTP 401 Unauthorized' });
    } finally {
      process.emit('SIGTERM', 'SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(err()).toBe('');
  });
});

describe('orgadmin serve (bad input)', () => {
  it.each([
    [['--port', 'http'], 'orgadmin: --port must be a whole number from 0 to 65535, not "http".\n'],
    [['--port', '70000'], 'orgadmin: --port must be a whole number from 0 to 65535, not "70000".\n'],
    [['--management-port', 'x'], 'orgadmin: --management-port must be a whole number from 0 to 65535, not "x".\n'],
    [['--log-format', 'xml'], 'orgadmin: --log-format must be one of json, pretty, not "xml".\n'],
    [['--log-level', 'loud'], 'orgadmin: --log-level must be one of fatal, error, warn, info, debug, trace, silent, not "loud".\n'],
    [['--shutdown-timeout', '0'], 'orgadmin: --shutdown-timeout must be a number of seconds above 0 and at most 3600, not "0".\n'],
    [['--rate-limit', '100'], 'orgadmin: --rate-limit must be REQUESTS/SECONDS with two positive whole numbers (e.g. 100/60), not "100".\n'],
    [['--rate-limit', '0/60'], 'orgadmin: --rate-limit must be REQUESTS/SECONDS with two positive whole numbers (e.g. 100/60), not "0/60".\n'],
    [['--public-url', 'orgs.example.com'], 'orgadmin: --public-url must be an absolute http or https URL without query or fragment (not an absolute URL), not "orgs.example.com".\n'],
    [['--public-url', 'ftp://orgs.example.com'], 'orgadmin: --public-url must be an absolute http or https URL without query or fragment (scheme ftp), not "ftp://orgs.example.com".\n'],
    [['--public-url', 'https://orgs.example.com/?x=1'], 'orgadmin: --public-url must be an absolute http or https URL without query or fragment (it has a query or fragment), not "https://orgs.example.com/?x=1".\n'],
    [['--compat', 'keycloak'], 'orgadmin: --compat must be one of standard, hosted, not "keycloak".\n'],
    [['--public-url', 'https://orgs.example.com#top'], 'orgadmin: --public-url must be an absolute http or https URL without query or fragment (it has a query or fragment), not "https://orgs.example.com#top".\n'],
  ])('refuses %j as a usage error before listening', async (flags, message) => {
    const listenersBefore = process.listenerCount('SIGTERM');
    const result = await sandbox.run('serve', ...flags);
    expect(result).toEqual({ code: 2, stdout: '', stderr: message });
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore);
  });

  it('says the data file cannot be opened in one sentence, exits 1 and leaves no signal handler behind', async () => {
    const listenersBefore = process.listenerCount('SIGTERM');
    // A directory where the SQLite file should be.
    const result = await sandbox.runRaw(['serve', '--port', '0', '--data', sandbox.dir]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `orgadmin: cannot open data file ${sandbox.dir}: unable to open database file.\n` });
    expect(process.listenerCount('SIGTERM')).toBe(listenersBefore);
  });

  it('says the port is in use, exits 1 and leaves no signal handler behind', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const listenersBefore = process.listenerCount('SIGTERM');
      const result = await sandbox.run('serve', '--port', String(port));
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `orgadmin: port ${port} on 127.0.0.1 is already in use; choose another with --port.\n`,
      });
      expect(process.listenerCount('SIGTERM')).toBe(listenersBefore);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('explainStartError', () => {
  const options = { host: '127.0.0.1', port: 8080, dataFile: 'postgres://app:s3cret-pw@db.example.com/orgadmin' };
  const systemError = (code: string, syscall: string, extra: object = {}): Error =>
    Object.assign(new Error(`${syscall} ${code}${'hostname' in extra ? ` ${String((extra as { hostname: string }).hostname)}` : ''}`), { code, syscall, ...extra });

  it('blames --data, without its password, when the database host is unknown', () => {
    const explained = explainStartError(systemError('ENOTFOUND', 'getaddrinfo', { hostname: 'db.example.com' }), options);
    expect(explained).toBeInstanceOf(CliError);
    expect((explained as CliError).message).toBe(
      'cannot open database postgres://app:***@db.example.com/orgadmin: getaddrinfo ENOTFOUND db.example.com',
    );
  });

  it('blames --host when the host to listen on is unknown or not of this machine', () => {
    const unknown = explainStartError(systemError('ENOTFOUND', 'getaddrinfo', { hostname: 'nowhere.invalid' }), { ...options, host: 'nowhere.invalid' });
    expect((unknown as CliError).message).toBe('cannot listen on host nowhere.invalid: it is not an address of this machine.');
    const foreign = explainStartError(systemError('EADDRNOTAVAIL', 'listen'), { ...options, host: '10.255.255.1' });
    expect((foreign as CliError).message).toBe('cannot listen on host 10.255.255.1: it is not an address of this machine.');
  });

  it('keeps an error that is neither about listening nor about the data as it is (a bug)', () => {
    const bug = new TypeError('x is not a function');
    expect(explainStartError(bug, options)).toBe(bug);
  });
});
