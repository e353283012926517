/**
 * The provider as a self-contained executable (a Node.js single executable application): it runs
 * with nothing of the machine, carries nothing of the build machine, and `orgadmin provider
 * install` installs it in place of the launcher.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { buildExecutable } from '../../../src/distribution/executable';
import { nodeBinary } from '../../../src/distribution/node-binary';
import { executableName, providerVersion } from '../../../src/distribution/package-info';
import { installProvider, PROVIDER_BUNDLE_FILE } from '../../../src/distribution/install';
import { generateCertificate } from '../../../src/tfplugin/protocol/certificate';
import { REPO_ROOT } from '../../e2e/helpers/bundle';
import { ensureHostExecutable, handshake, hostPlatform } from './helpers';

const version = providerVersion();
let executable: string;
let root: string;

beforeAll(() => {
  executable = ensureHostExecutable(version);
}, 300_000);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgadmin-executable-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** How often `needle` occurs in `haystack`. */
function occurrences(haystack: Buffer, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

describe('the self-contained executable', () => {
  it('refuses to run outside Terraform, with a human message, in an empty environment', () => {
    const run = spawnSync(executable, [], { env: {}, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('This binary is a plugin');
  });

  it('prints the go-plugin handshake with TLS given only the variables Terraform sets (no PATH, no HOME)', async () => {
    const sockets = join(root, 'sockets');
    await mkdir(sockets);
    const line = await handshake(executable, [], sockets);
    expect(line).toMatch(new RegExp(`^1\\|6\\|unix\\|${sockets}/[^|]+\\|grpc\\|[A-Za-z0-9+/]+\\n$`));
  }, 30_000);

  it('holds no path of the build machine and no key: nothing the stock Node.js binary does not hold already', async () => {
    const built = await readFile(executable);
    const stock = await readFile(await nodeBinary(hostPlatform(), process.versions.node));
    // Node's own binary names its build machine's paths and holds root certificates: compare with it.
    for (const needle of [REPO_ROOT, homedir(), `${tmpdir()}/orgadmin`, 'PRIVATE KEY-----']) {
      expect({ needle, count: occurrences(built, needle) }).toEqual({ needle, count: occurrences(stock, needle) });
    }
    // PEM blocks with a body (keys, certificates): only Node's own root certificates. (The provider's
    // code mentions "-----BEGIN CERTIFICATE-----" to write PEM, but holds none.)
    const pemBlocks = (data: Buffer): number => data.toString('latin1').match(/-----BEGIN [A-Z ]+-----\r?\n[A-Za-z0-9+/=\r\n]{64,}/g)?.length ?? 0;
    expect(pemBlocks(built)).toBe(pemBlocks(stock));
    expect(occurrences(built, REPO_ROOT)).toBe(0);
    expect(built.length - stock.length).toBeLessThan(4 * 1024 * 1024);
  }, 60_000);
});

describe('orgadmin provider install with a built executable', () => {
  it('installs the executable alone in place of the launcher', async () => {
    const installed = await installProvider({ dir: join(root, 'mirror') });
    expect(installed.selfContained).toBe(true);
    expect(installed.path.endsWith(`/${hostPlatform().name}/${executableName(version)}`)).toBe(true);
    expect(await readdir(dirname(installed.path))).toEqual([executableName(version)]);
    expect((await readFile(installed.path)).equals(await readFile(executable))).toBe(true);
    expect((await installProvider({ dir: join(root, 'mirror') })).status).toBe('unchanged');
  }, 60_000);

  it('installs the launcher when no executable was built from the current bundle', async () => {
    const installed = await installProvider({ dir: join(root, 'mirror'), executablesDir: join(root, 'no-executables') });
    expect(installed.selfContained).toBeUndefined();
    expect((await readdir(dirname(installed.path))).sort()).toEqual(expect.arrayContaining([PROVIDER_BUNDLE_FILE, executableName(version)]));
  }, 60_000);
});

/**
 * Node's default TLS store inside the executable format, seen by a plain `https.get`. It is why the
 * provider's own HTTPS client adds the system's CAs (trust-store.test.ts, executable-trust.test.ts).
 */
describe("Node's default TLS trust inside the executable format", () => {
  /** A stand-in bundle that fetches https://localhost:$TEST_PORT/ and says whether it trusted the server. */
  const HTTPS_CLIENT_BUNDLE = [
    "const https = require('https');",
    "https.get({ host: '127.0.0.1', servername: 'localhost', port: Number(process.env.TEST_PORT), agent: false }, (res) => {",
    '  res.resume();',
    "  process.stdout.write('trusted');",
    "}).on('error', (error) => process.stdout.write('untrusted: ' + error.code));",
    '',
  ].join('\n');
  let server: Server;
  let certFile: string;
  let client: string;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'orgadmin-executable-tls-'));
    const { certPem, keyPem } = generateCertificate();
    certFile = join(work, 'server-cert.pem');
    await writeFile(certFile, certPem);
    // The same executable format, built around the stand-in bundle.
    const built = await buildExecutable({
      platform: hostPlatform(),
      bundle: Buffer.from(HTTPS_CLIENT_BUNDLE),
      version: '0.0.0-tls-test',
      outDir: join(work, 'executables'),
      codeCache: false,
    });
    client = built.path;
    server = createServer({ cert: certPem, key: keyPem }, (_request, response) => response.end('ok'));
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  }, 120_000);

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolveClose) => (server ? server.close(() => resolveClose()) : resolveClose()));
    await rm(work, { recursive: true, force: true });
  });

  async function fetchThroughExecutable(env: NodeJS.ProcessEnv): Promise<string> {
    const port = String((server.address() as AddressInfo).port);
    const { stdout } = await promisify(execFile)(client, [], { env: { TEST_PORT: port, ...env } });
    return stdout;
  }

  it('does not trust a server whose certificate is in no trust store', async () => {
    expect(await fetchThroughExecutable({})).toMatch(/^untrusted: /);
  });

  it('trusts the certificates of NODE_EXTRA_CA_CERTS', async () => {
    expect(await fetchThroughExecutable({ NODE_EXTRA_CA_CERTS: certFile })).toBe('trusted');
  });

  it('does not read SSL_CERT_FILE (the executable takes no --use-openssl-ca flag, unlike the launcher)', async () => {
    expect(await fetchThroughExecutable({ SSL_CERT_FILE: certFile })).toMatch(/^untrusted: /);
  });
});
