/**
 * Test helpers for the provider's self-contained executable and registry release: the host
 * platform's executable (built by scripts/build-executables.mjs when missing or stale), a throwaway GPG key,
 * a throwaway certificate authority, and an HTTPS server that speaks Terraform's provider registry
 * protocol and serves the same release as a network mirror.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateCertificate } from '../../../src/tfplugin/protocol/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../../src/tfplugin/protocol/plugin-server';
import { defaultBundlePath, executableName, PROVIDER_TYPE, providerVersion } from '../../../src/distribution/package-info';
import { hostExecutablePlatform, type ExecutablePlatform } from '../../../src/distribution/platforms';
import { releaseFileNames, releaseProvider, PROTOCOL_VERSIONS, type Release } from '../../../src/distribution/release';
import { ensureProviderBundle, REPO_ROOT } from '../../e2e/helpers/bundle';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';

/** Where scripts/build-executables.mjs writes the executables. */
export const EXECUTABLES_DIR = join(REPO_ROOT, 'dist', 'provider', 'executables');

/** This machine's platform; the tests need one the executable is built for. */
export function hostPlatform(): ExecutablePlatform {
  const platform = hostExecutablePlatform();
  if (platform === undefined) throw new Error(`no provider executable can be built for ${process.platform}/${process.arch}`);
  return platform;
}

/**
 * Makes sure the bundle and this platform's executable are built from the current sources
 * (scripts/build-executables.mjs keeps an up-to-date build), under one lock across jest workers. Returns the
 * executable's path.
 */
export function ensureHostExecutable(version: string): string {
  ensureExecutables([hostPlatform()]);
  return join(EXECUTABLES_DIR, hostPlatform().name, executableName(version, hostPlatform().suffix));
}

/** Like {@link ensureHostExecutable}, for any platforms (their Bun runtime comes from the npm registry). */
export function ensureExecutables(platforms: readonly ExecutablePlatform[]): void {
  ensureProviderBundle();
  // --platforms: a build that cannot be made fails here, with its reason, instead of warning.
  const script = join(REPO_ROOT, 'scripts', 'build-executables.mjs');
  const names = platforms.map((platform) => platform.name).join(',');
  execFileSync('flock', ['/tmp/orgadmin-provider-executables.lock', process.execPath, script, '--platforms', names], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Each target's runtime is fetched from the npm registry the first time.
    timeout: 900_000,
  });
}

/** A throwaway GPG key in its own GNUPGHOME. */
export interface GpgKey {
  /** Environment for gpg (`GNUPGHOME`). */
  env: NodeJS.ProcessEnv;
  /** Long key ID (16 hex digits), as the registry protocol reports it. */
  keyId: string;
  fingerprint: string;
  /** ASCII-armored public key. */
  armor: string;
  /** Stops the gpg-agent this key's home started. */
  close(): void;
}

/** Generates an Ed25519 signing key with no passphrase in `gnupgHome` (an empty, short path: gpg's sockets live there). */
export function generateGpgKey(gnupgHome: string, name = 'orgadmin release test'): GpgKey {
  const env = { ...process.env, GNUPGHOME: gnupgHome };
  const gpg = (args: string[]): string => execFileSync('gpg', ['--batch', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  gpg(['--passphrase', '', '--quick-gen-key', `${name} <release-test@example.com>`, 'ed25519', 'sign', 'never']);
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(['--with-colons', '--list-secret-keys']))![1]!;
  return {
    env,
    fingerprint,
    keyId: fingerprint.slice(-16),
    armor: gpg(['--armor', '--export', fingerprint]),
    close: () => void execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env, stdio: 'ignore' }),
  };
}

/** PEM files of a throwaway CA and a `localhost` / `127.0.0.1` server certificate it signed. */
export interface TestCa {
  caCertFile: string;
  serverCert: string;
  serverKey: string;
}

/** Creates a CA and a server certificate with openssl in `dir`. */
export async function createTestCa(dir: string): Promise<TestCa> {
  const openssl = (args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=orgadmin test CA']);
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  await writeFile(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'server.ext', '-out', 'server.pem']);
  return {
    caCertFile: join(dir, 'ca.pem'),
    serverCert: await readFile(join(dir, 'server.pem'), 'utf8'),
    serverKey: await readFile(join(dir, 'server.key'), 'utf8'),
  };
}

/** What {@link startRegistry} serves. */
export interface RegistryOptions {
  ca: TestCa;
  /** Directory holding the release files. */
  releaseDir: string;
  version: string;
  platforms: readonly ExecutablePlatform[];
  key: GpgKey;
  /** Replaces a release file's bytes as served (to test that Terraform checks them). */
  tamper?: (name: string, content: Buffer) => Buffer;
}

/** A running test registry. */
export interface Registry {
  /** `localhost:PORT`: the registry host of provider source addresses. */
  host: string;
  /** `https://localhost:PORT/mirror/`: the network mirror's base URL. */
  mirrorUrl: string;
  /** Request paths served, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Starts an HTTPS server on localhost that implements, for the provider `<host>/orgadmin/orgadmin`,
 * the provider registry protocol (service discovery, `versions`, `download`) and, under `/mirror/`,
 * the provider network mirror protocol (`index.json`, `<version>.json`, with `zh:` hashes) for the
 * provider `registry.terraform.io/orgadmin/orgadmin`, both from the same release files.
 */
export async function startRegistry(options: RegistryOptions): Promise<Registry> {
  const names = releaseFileNames(options.version);
  const requests: string[] = [];
  const file = async (name: string): Promise<Buffer> => {
    const content = await readFile(join(options.releaseDir, name));
    return options.tamper ? options.tamper(name, content) : content;
  };
  let host = '';
  const routes = async (path: string): Promise<{ type: string; body: Buffer | string } | undefined> => {
    const json = (value: unknown): { type: string; body: string } => ({ type: 'application/json', body: JSON.stringify(value) });
    if (path === '/.well-known/terraform.json') return json({ 'providers.v1': '/v1/providers/' });
    const base = `/v1/providers/orgadmin/${PROVIDER_TYPE}`;
    if (path === `${base}/versions`) {
      return json({
        versions: [{ version: options.version, protocols: PROTOCOL_VERSIONS, platforms: options.platforms.map(({ os, arch }) => ({ os, arch })) }],
      });
    }
    const download = new RegExp(`^${base}/${options.version.replace(/\./g, '\\.')}/download/([a-z0-9]+)/([a-z0-9]+)$`).exec(path);
    if (download) {
      const platform = options.platforms.find((p) => p.os === download[1] && p.arch === download[2]);
      if (platform === undefined) return undefined;
      const zip = names.zip(platform.name);
      return json({
        protocols: PROTOCOL_VERSIONS,
        os: platform.os,
        arch: platform.arch,
        filename: zip,
        download_url: `https://${host}/files/${zip}`,
        shasums_url: `https://${host}/files/${names.shasums}`,
        shasums_signature_url: `https://${host}/files/${names.signature}`,
        shasum: createHash('sha256').update(await file(zip)).digest('hex'),
        signing_keys: { gpg_public_keys: [{ key_id: options.key.keyId, ascii_armor: options.key.armor }] },
      });
    }
    if (path.startsWith('/files/')) return { type: 'application/octet-stream', body: await file(path.slice('/files/'.length)) };
    // Network mirror: <base>/<hostname>/<namespace>/<type>/index.json, <version>.json and the archives.
    const mirror = `/mirror/registry.terraform.io/orgadmin/${PROVIDER_TYPE}/`;
    if (path === `${mirror}index.json`) return json({ versions: { [options.version]: {} } });
    if (path === `${mirror}${options.version}.json`) {
      const archives: Record<string, { url: string; hashes: string[] }> = {};
      for (const platform of options.platforms) {
        const zip = names.zip(platform.name);
        // The URL is relative to this document's; zh: is the SHA-256 of the zip file.
        archives[platform.name] = { url: zip, hashes: [`zh:${createHash('sha256').update(await file(zip)).digest('hex')}`] };
      }
      return json({ archives });
    }
    if (path.startsWith(mirror) && path.endsWith('.zip')) return { type: 'application/zip', body: await file(path.slice(mirror.length)) };
    return undefined;
  };
  const server: Server = createServer({ cert: options.ca.serverCert, key: options.ca.serverKey }, (request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    requests.push(path);
    routes(path).then(
      (found) => {
        if (found === undefined) {
          response.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":["not found"]}');
        } else {
          response.writeHead(200, { 'content-type': found.type }).end(found.body);
        }
      },
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  host = `localhost:${(server.address() as AddressInfo).port}`;
  return {
    host,
    mirrorUrl: `https://${host}/mirror/`,
    requests,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * The environment terraform runs with in these tests: nothing of the machine's (no PATH, so no
 * Node.js either: the provider must run without), a private HOME and CLI configuration, the test
 * CA trusted through SSL_CERT_FILE, and `extra`.
 */
export function bareTerraformEnv(home: string, caCertFile: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    HOME: home,
    PATH: '',
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    SSL_CERT_FILE: caCertFile,
    TF_CLI_CONFIG_FILE: join(home, 'terraform.rc'),
    ...extra,
  };
}

/**
 * Starts `command args` with only the variables Terraform sets for a plugin (no PATH, no HOME;
 * sockets in `socketDir`) and resolves with the go-plugin handshake line it prints, then stops it.
 */
export async function handshake(command: string, args: readonly string[], socketDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  const child = spawn(command, args, {
    env: {
      ...extraEnv,
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '5,6',
      PLUGIN_MIN_PORT: '10000',
      PLUGIN_MAX_PORT: '25000',
      PLUGIN_CLIENT_CERT: generateCertificate().certPem,
      TMPDIR: socketDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  try {
    return await new Promise<string>((resolveLine, reject) => {
      let output = '';
      let errors = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => (errors += chunk));
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('\n')) resolveLine(output);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`exited (${String(code)}) before the handshake: ${output}${errors}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** A signed release of the provider served over HTTPS (registry and network mirror), and a service to point it at. */
export interface ReleaseFixture {
  /** A temporary working directory (removed by {@link ReleaseFixture.close}). */
  work: string;
  /** The throwaway signing key. */
  key: GpgKey;
  /** The throwaway CA that signed the registry's certificate. */
  ca: TestCa;
  /** The release as written by `orgadmin provider release`. */
  release: Release;
  /** The HTTPS registry and network mirror serving it. */
  registry: Registry;
  /** A real service on port 0. */
  svc: TestService;
  /** A realm of that service with an all-permissions API key. */
  realm: { realm: string; clientId: string; clientSecret: string };
  /** The `ORGADMIN_*` settings that point the provider at `realm`. */
  providerEnv: Record<string, string>;
  /** Stops the registry and the service, removes the key and the working directory. */
  close(): Promise<void>;
}

/**
 * Builds a release of `platforms` signed with a throwaway key (executables must exist: see
 * {@link ensureExecutables}), serves it over HTTPS with a throwaway CA, and starts a service with a
 * realm named `realmName`.
 */
export async function startReleaseFixture(options: {
  prefix: string;
  platforms: readonly ExecutablePlatform[];
  realmName: string;
}): Promise<ReleaseFixture> {
  const work = await mkdtemp(join(tmpdir(), options.prefix));
  // gpg-agent's socket lives in GNUPGHOME, whose path must stay short.
  const key = generateGpgKey(await mkdtemp('/tmp/gpg-'));
  let registry: Registry | undefined;
  let svc: TestService | undefined;
  const close = async (): Promise<void> => {
    await registry?.close();
    await svc?.close();
    key.close();
    await rm(key.env.GNUPGHOME!, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  };
  try {
    const version = providerVersion();
    const ca = await createTestCa(await mkdtemp(join(work, 'ca-')));
    const release = await releaseProvider({
      outDir: join(work, 'release'),
      version,
      bundle: await readFile(defaultBundlePath()),
      platforms: options.platforms,
      executablesDir: EXECUTABLES_DIR,
      signingKey: key.fingerprint,
      gpgEnv: key.env,
    });
    registry = await startRegistry({ ca, releaseDir: release.dir, version, platforms: options.platforms, key });
    svc = await startTestService();
    const realm = await createTestRealm(svc, options.realmName);
    const providerEnv = {
      ORGADMIN_BASE_URL: svc.baseUrl,
      ORGADMIN_REALM: realm.realm,
      ORGADMIN_CLIENT_ID: realm.clientId,
      ORGADMIN_CLIENT_SECRET: realm.clientSecret,
    };
    return { work, key, ca, release, registry, svc, realm, providerEnv, close };
  } catch (error) {
    await close();
    throw error;
  }
}
