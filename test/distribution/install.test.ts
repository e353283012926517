import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Script } from 'node:vm';
import { runProviderCommand } from '../../src/cli/commands/provider';
import type { CliIO } from '../../src/cli/io';
import { PROVIDER_SOURCE_ADDRESS } from '../../src/provider';
import {
  bundleScriptSource,
  installProvider,
  ProviderInstallError,
  PROVIDER_BUNDLE_FILE,
  providerCodeCacheFile,
  PROVIDER_INSTALL_ADDRESS,
  PROVIDER_NODE_FLAGS,
  providerVersion,
  terraformPlatform,
} from '../../src/distribution/install';
import { LAZY_SOURCES_MARKER } from '../../src/distribution/bundle-loader';
import { generateCertificate } from '../../src/tfplugin/protocol/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/tfplugin/protocol/plugin-server';
import { ensureProviderBundle } from '../e2e/helpers/bundle';
import { runTerraform, terraformEnv } from '../e2e/helpers/terraform';

const execFileAsync = promisify(execFile);
const pkg = require('../../package.json') as { version: string };

/** A stand-in bundle: installing does not care what the bundle does, only that it is copied whole. */
const FAKE_BUNDLE = "process.stdout.write('fake provider bundle ran from ' + __dirname + '\\n');\n";

let root: string;
let bundlePath: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgadmin-install-'));
  bundlePath = join(root, 'bundle.js');
  await writeFile(bundlePath, FAKE_BUNDLE);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function memoryIO(env: NodeJS.ProcessEnv = {}): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: root };
}

describe('terraformPlatform', () => {
  it('names platforms the way Go does', () => {
    expect(terraformPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(terraformPlatform('linux', 'arm64')).toBe('linux_arm64');
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
  });

  it('refuses Windows with a reason, since Terraform there starts only .exe plugins', () => {
    expect(() => terraformPlatform('win32', 'x64')).toThrow(/\.exe/);
  });
});

describe('installProvider', () => {
  it('writes the launcher, the bundle and its code cache into the filesystem-mirror layout', async () => {
    const dir = join(root, 'mirror');
    const result = await installProvider({ dir, bundlePath });
    const version = pkg.version;
    const platform = terraformPlatform();
    const packageDir = join(dir, 'registry.terraform.io', 'orgadmin', 'orgadmin', version, platform);

    expect(result).toEqual({
      address: 'registry.terraform.io/orgadmin/orgadmin',
      version,
      platform,
      path: join(packageDir, `terraform-provider-orgadmin_v${version}`),
      status: 'installed',
    });
    expect((await readdir(packageDir)).sort()).toEqual(
      [PROVIDER_BUNDLE_FILE, providerCodeCacheFile(), `terraform-provider-orgadmin_v${version}`].sort(),
    );
    // Terraform runs the first file named terraform-provider-orgadmin*: it must be the launcher.
    expect((await readdir(packageDir)).filter((name) => name.startsWith('terraform-provider-orgadmin'))).toEqual([
      `terraform-provider-orgadmin_v${version}`,
    ]);
    expect(await readFile(join(packageDir, PROVIDER_BUNDLE_FILE), 'utf8')).toBe(FAKE_BUNDLE);
    expect((await stat(result.path)).mode & 0o111).toBe(0o111);
    // Node.js started with the system CA store, its flag split off by `env -S`, and without
    // NODE_EXTRA_CA_CERTS, whose value goes to the provider instead.
    expect((await readFile(result.path, 'utf8')).split('\n', 1)[0]).toBe(
      '#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS ORGADMIN_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS} node --use-openssl-ca',
    );
    // Nothing but the version directory's platform folder is left behind (no staging directories).
    expect(await readdir(dirname(packageDir))).toEqual([platform]);
  });

  it('installs a launcher that runs the bundle next to it', async () => {
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    const { stdout } = await execFileAsync(path, [], { env: process.env });
    expect(stdout).toBe(`fake provider bundle ran from ${dirname(path)}\n`);
  });

  it('starts the bundle under the Node.js flags of the launcher line', async () => {
    await writeFile(bundlePath, "process.stdout.write(JSON.stringify(process.execArgv));\n");
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    const { stdout } = await execFileAsync(path, [], { env: { PATH: process.env.PATH } });
    expect(JSON.parse(stdout)).toEqual(['--use-openssl-ca']);
  });

  it('hands NODE_EXTRA_CA_CERTS to the provider instead of to Node.js, whatever the path holds', async () => {
    await writeFile(
      bundlePath,
      "process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS, process.env.ORGADMIN_EXTRA_CA_CERTS, process.execArgv]));\n",
    );
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    const seen = async (env: NodeJS.ProcessEnv): Promise<unknown> => JSON.parse((await execFileAsync(path, [], { env: { PATH: process.env.PATH, ...env } })).stdout);
    const file = join(root, 'a dir', 'extra $HOME ${PATH}.pem');
    // (JSON writes the unset variable as null.)
    expect(await seen({ NODE_EXTRA_CA_CERTS: file })).toEqual([null, file, ['--use-openssl-ca']]);
    // Unset: handed over empty, which the provider takes as none.
    expect(await seen({})).toEqual([null, '', ['--use-openssl-ca']]);
  });

  it('writes a code cache that V8 accepts for the script the launcher compiles, under the launcher flags', async () => {
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    const cacheFile = join(dirname(path), providerCodeCacheFile());
    const cachedData = await readFile(cacheFile);
    expect(cachedData.length).toBeGreaterThan(0);
    // Checked in a Node.js started the way the launcher starts one (its flags), compiling the
    // exact script text the launcher compiles.
    const sourceFile = join(root, 'script.js');
    await writeFile(sourceFile, bundleScriptSource(FAKE_BUNDLE));
    const check = [
      "const { readFileSync } = require('fs');",
      "const { Script } = require('vm');",
      'const [sourceFile, filename, cacheFile] = process.argv.slice(1);',
      "const script = new Script(readFileSync(sourceFile, 'utf8'), { filename, cachedData: readFileSync(cacheFile) });",
      'process.stdout.write(JSON.stringify({ execArgv: process.execArgv, rejected: script.cachedDataRejected }));',
    ].join('\n');
    const { stdout } = await execFileAsync(
      process.execPath,
      [...PROVIDER_NODE_FLAGS, '-e', check, sourceFile, join(dirname(path), PROVIDER_BUNDLE_FILE), cacheFile],
      { env: { PATH: process.env.PATH } },
    );
    expect(JSON.parse(stdout)).toEqual({ execArgv: [...PROVIDER_NODE_FLAGS, '-e', check], rejected: false });
    // A different bundle text does not fit the cache.
    const other = new Script(bundleScriptSource(`${FAKE_BUNDLE}// another build\n`), { cachedData });
    expect(other.cachedDataRejected).toBe(true);
  });

  it("hands the bundle its lazy sources on request and compiles it without their footer; run as a plain script it reads its holders", async () => {
    const probe = [
      '#!/usr/bin/env node',
      "const handed = typeof __orgadminLazySource === 'function' ? __orgadminLazySource('__lazySource_demo') : null;",
      "process.stdout.write(JSON.stringify({ handed, holder: typeof __lazySource_demo }) + '\\n');",
    ].join('\n');
    const withFooter = `${probe}${LAZY_SOURCES_MARKER}function __lazySource_demo(){/*aGVsbG8=*/}\n`;
    await writeFile(bundlePath, withFooter);
    expect(bundleScriptSource(withFooter)).not.toContain('__lazySource_demo(){');
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    // The launcher: the source is handed over, the holder was never compiled.
    const launched = await execFileAsync(path, [], { env: process.env });
    expect(JSON.parse(launched.stdout)).toEqual({ handed: 'aGVsbG8=', holder: 'undefined' });
    // The same file run directly: no loader, so the bundle has its holder.
    const direct = await execFileAsync(process.execPath, [join(dirname(path), PROVIDER_BUNDLE_FILE)], { env: process.env });
    expect(JSON.parse(direct.stdout)).toEqual({ handed: null, holder: 'function' });
  });

  it('keeps the shebang line of a real bundle as a comment, so line numbers stay those of the file', () => {
    const source = bundleScriptSource('#!/usr/bin/env node\nmodule.exports = __filename;\n');
    expect(source.split('\n')[1]).toBe('module.exports = __filename;');
    const run = new Script(source).runInThisContext() as (e: unknown, r: unknown, m: { exports: unknown }, f: string, d: string) => void;
    const mod = { exports: undefined as unknown };
    run.call(undefined, {}, require, mod, '/x/bundle.js', '/x');
    expect(mod.exports).toBe('/x/bundle.js');
  });

  it('runs the bundle from source when the code cache does not fit this Node.js', async () => {
    const { path } = await installProvider({ dir: join(root, 'mirror'), bundlePath });
    await writeFile(join(dirname(path), providerCodeCacheFile()), 'not a V8 code cache');
    const { stdout } = await execFileAsync(path, [], { env: process.env });
    expect(stdout).toBe(`fake provider bundle ran from ${dirname(path)}\n`);
  });

  it('leaves identical files alone when run twice, code cache included', async () => {
    const dir = join(root, 'mirror');
    const first = await installProvider({ dir, bundlePath });
    const before = await stat(join(dirname(first.path), PROVIDER_BUNDLE_FILE));
    const cacheBefore = await stat(join(dirname(first.path), providerCodeCacheFile()));
    const second = await installProvider({ dir, bundlePath });
    const after = await stat(join(dirname(first.path), PROVIDER_BUNDLE_FILE));
    const cacheAfter = await stat(join(dirname(first.path), providerCodeCacheFile()));

    expect(second.status).toBe('unchanged');
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    // The cache is not made again: a new one would change the lock-file hash of the same version.
    expect(cacheAfter.ino).toBe(cacheBefore.ino);
    expect(cacheAfter.mtimeMs).toBe(cacheBefore.mtimeMs);
  });

  it('replaces a different build as a whole and leaves no temporary directories', async () => {
    const dir = join(root, 'mirror');
    const first = await installProvider({ dir, bundlePath });
    await writeFile(bundlePath, "process.stdout.write('second build\\n');\n");
    const second = await installProvider({ dir, bundlePath });

    expect(second.status).toBe('replaced');
    expect(second.path).toBe(first.path);
    expect(await readFile(join(dirname(second.path), PROVIDER_BUNDLE_FILE), 'utf8')).toContain('second build');
    expect(await readdir(dirname(dirname(second.path)))).toEqual([second.platform]);
  });

  it('repairs an installation whose launcher lost its executable bit', async () => {
    const dir = join(root, 'mirror');
    const first = await installProvider({ dir, bundlePath });
    await chmod(first.path, 0o644);
    const second = await installProvider({ dir, bundlePath });
    expect(second.status).toBe('replaced');
    expect((await stat(second.path)).mode & 0o111).toBe(0o111);
  });

  it('says to run the provider build when the bundle is missing, and creates nothing', async () => {
    const dir = join(root, 'mirror');
    const attempt = installProvider({ dir, bundlePath: join(root, 'missing.js') });
    await expect(attempt).rejects.toThrow(ProviderInstallError);
    await expect(installProvider({ dir, bundlePath: join(root, 'missing.js') })).rejects.toThrow(/npm run build:provider/);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
  });

  it('says which mirror it cannot write to when a file is in the way', async () => {
    const dir = join(root, 'not-a-directory');
    await writeFile(dir, 'a file');
    const attempt = installProvider({ dir, bundlePath });
    await expect(attempt).rejects.toThrow(ProviderInstallError);
    await expect(installProvider({ dir, bundlePath })).rejects.toThrow(`cannot install the provider into ${dir}`);
    expect(await readFile(dir, 'utf8')).toBe('a file');
  });

  it('takes its version from package.json', () => {
    expect(providerVersion()).toBe(pkg.version);
  });

  it('installs under the source address the provider declares', () => {
    expect(PROVIDER_INSTALL_ADDRESS).toBe(PROVIDER_SOURCE_ADDRESS);
  });
});

describe('TLS trust of the installed provider', () => {
  /**
   * A bundle that fetches https://localhost:$TEST_PORT/ as the provider's HTTPS client does (an
   * undici agent with the provider's trust connector) and says whether it trusted the server.
   */
  let httpsClientBundle: string;
  let server: Server;
  let certFile: string;
  let launcher: string;

  beforeAll(async () => {
    const esbuild = await import('esbuild');
    const built = await esbuild.build({
      stdin: {
        contents: [
          "import { Agent, request } from 'undici';",
          `import { providerTrustConnector } from ${JSON.stringify(join(__dirname, '../../src/distribution/trust-store'))};`,
          'const agent = new Agent({ connect: providerTrustConnector() });',
          'request(`https://localhost:${process.env.TEST_PORT}/`, { dispatcher: agent })',
          '  .then((answer) => answer.body.text())',
          "  .then(() => process.stdout.write('trusted'), (error) => process.stdout.write('untrusted: ' + (error.code ?? error.cause?.code)))",
          '  .finally(() => agent.close());',
        ].join('\n'),
        resolveDir: __dirname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'warning',
    });
    httpsClientBundle = built.outputFiles[0]!.text;
  });

  beforeEach(async () => {
    const { certPem, keyPem } = generateCertificate();
    certFile = join(root, 'server-cert.pem');
    await writeFile(certFile, certPem);
    await writeFile(bundlePath, httpsClientBundle);
    launcher = (await installProvider({ dir: join(root, 'mirror'), bundlePath })).path;
    server = createServer({ cert: certPem, key: keyPem }, (_request, response) => response.end('ok'));
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  });

  /** Runs the launcher as Terraform does (executed, its `#!` line choosing Node.js and flags) with only `env` set. */
  async function fetchThroughLauncher(env: NodeJS.ProcessEnv): Promise<string> {
    const port = String((server.address() as AddressInfo).port);
    const { stdout } = await execFileAsync(launcher, [], { env: { PATH: process.env.PATH, TEST_PORT: port, ...env } });
    return stdout;
  }

  it('does not trust a server whose certificate is in no trust store', async () => {
    expect(await fetchThroughLauncher({})).toMatch(/^untrusted: /);
  });

  it('trusts the system CA store, so SSL_CERT_FILE applies as it does for OpenSSL and Go programs', async () => {
    expect(await fetchThroughLauncher({ SSL_CERT_FILE: certFile })).toBe('trusted');
  });

  it('still adds the certificates of NODE_EXTRA_CA_CERTS, which the provider reads instead of Node.js', async () => {
    expect(await fetchThroughLauncher({ NODE_EXTRA_CA_CERTS: certFile })).toBe('trusted');
    expect(await fetchThroughLauncher({ NODE_EXTRA_CA_CERTS: certFile, SSL_CERT_FILE: join(root, 'no-such-bundle.pem') })).toBe('trusted');
  });

  it('trusts nothing more when NODE_EXTRA_CA_CERTS names no file, and still runs', async () => {
    expect(await fetchThroughLauncher({ NODE_EXTRA_CA_CERTS: join(root, 'missing.pem') })).toMatch(/^untrusted: /);
  });
});

describe('orgadmin provider install', () => {
  // The command installs the real bundle from dist/provider.
  beforeAll(() => ensureProviderBundle(), 120_000);

  it('installs a launcher that, executed as Terraform does, prints the go-plugin handshake with TLS', async () => {
    const { path } = await installProvider({ dir: join(root, 'mirror') });
    const sockets = join(root, 'sockets');
    await mkdir(sockets);
    const child = spawn(path, [], {
      env: {
        PATH: process.env.PATH,
        TMPDIR: sockets,
        [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '6',
        PLUGIN_CLIENT_CERT: generateCertificate().certPem,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    try {
      const line = await new Promise<string>((resolveLine, reject) => {
        let output = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('\n')) resolveLine(output);
        });
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`the provider exited (${String(code)}) before the handshake: ${output}`)));
      });
      // core version | protocol version | network | address | protocol | server certificate
      expect(line).toMatch(/^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/]+=*\n$/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  it('prints the address, version and path', async () => {
    const io = memoryIO({ HOME: join(root, 'home') });
    const code = await runProviderCommand(['install', '--dir', 'mirror'], io);
    expect(io.err.join('')).toBe('');
    expect(code).toBe(0);
    const out = io.out.join('');
    expect(out).toContain('registry.terraform.io/orgadmin/orgadmin');
    expect(out).toContain(pkg.version);
    expect(out).toContain(join(root, 'mirror', 'registry.terraform.io', 'orgadmin', 'orgadmin', pkg.version));
    // Not an implied mirror: the output says how to configure Terraform for it.
    expect(out).toContain(`path    = ${JSON.stringify(join(root, 'mirror'))}`);
  });

  it('prints JSON with --json and defaults to ~/.terraform.d/plugins of the given HOME', async () => {
    const home = join(root, 'home');
    const io = memoryIO({ HOME: home });
    expect(await runProviderCommand(['install', '--json'], io)).toBe(0);
    const result = JSON.parse(io.out.join('')) as { path: string; version: string; status: string };
    expect(result.path.startsWith(join(home, '.terraform.d', 'plugins', 'registry.terraform.io', 'orgadmin', 'orgadmin'))).toBe(true);
    expect(result.version).toBe(pkg.version);
    expect((await stat(result.path)).isFile()).toBe(true);
  });

  it('does not ask for a CLI configuration when installing into ~/.terraform.d/plugins', async () => {
    const io = memoryIO({ HOME: join(root, 'home') });
    expect(await runProviderCommand(['install'], io)).toBe(0);
    expect(io.out.join('')).toContain('Installed registry.terraform.io/orgadmin/orgadmin');
    expect(io.out.join('')).not.toContain('provider_installation');
  });

  it('rejects an unknown flag as a usage error', async () => {
    await expect(runProviderCommand(['install', '--dri', 'x'], memoryIO())).rejects.toThrow(/unknown flag --dri/);
  });

  it('rejects an unknown subcommand', async () => {
    await expect(runProviderCommand(['uninstall'], memoryIO())).rejects.toThrow(/unknown command "orgadmin provider uninstall"/);
  });
});

describe('terraform init from ~/.terraform.d/plugins', () => {
  beforeAll(() => ensureProviderBundle(), 120_000);

  it('installs the provider with no CLI configuration and no network, locks its hash, and runs it', async () => {
    const home = join(root, 'home');
    const work = join(root, 'work');
    const installed = await installProvider({ dir: join(home, '.terraform.d', 'plugins') });
    await mkdir(work);
    await writeFile(
      join(work, 'main.tf'),
      `terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin", version = "${installed.version}" }\n  }\n}\n`,
    );
    // TF_CLI_CONFIG_FILE of the machine is dropped by terraformEnv: only the implied mirror is left.
    const env = terraformEnv({ HOME: home });

    const init = await runTerraform(work, ['init', '-no-color', '-input=false'], env);

    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Installing orgadmin/orgadmin v${installed.version}`);
    const lock = await readFile(join(work, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain('provider "registry.terraform.io/orgadmin/orgadmin"');
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/=]+"/);

    // Terraform starts the launcher (not the bundle) and gets the schema over the plugin protocol.
    const schema = await runTerraform(work, ['providers', 'schema', '-json'], env);
    expect(schema.stderr).toBe('');
    expect(schema.code).toBe(0);
    const parsed = JSON.parse(schema.stdout) as { provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }> };
    expect(Object.keys(parsed.provider_schemas['registry.terraform.io/orgadmin/orgadmin']!.resource_schemas)).toContain('orgadmin_organization');
  });

  it('locks a hash that covers the bundle, so a different bundle under the same version is refused', async () => {
    const home = join(root, 'home');
    const work = join(root, 'work');
    const plugins = join(home, '.terraform.d', 'plugins');
    await installProvider({ dir: plugins, bundlePath });
    await mkdir(work);
    await writeFile(join(work, 'main.tf'), 'terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin" }\n  }\n}\n');
    const env = terraformEnv({ HOME: home });
    expect((await runTerraform(work, ['init', '-no-color', '-input=false'], env)).code).toBe(0);

    // Only the bundle changes; the launcher is byte-for-byte the same.
    await writeFile(bundlePath, "process.stdout.write('tampered\\n');\n");
    expect((await installProvider({ dir: plugins, bundlePath })).status).toBe('replaced');
    const again = await runTerraform(work, ['init', '-no-color', '-input=false'], env);

    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/doesn't match any of the\s+checksums previously recorded in the dependency lock file/);
  });
});
