/**
 * `orgadmin provider install`: the executable from the platform's npm package or this checkout's
 * build, the Node.js launcher when asked for, into a filesystem mirror Terraform installs from.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { runProviderCommand } from '../../src/cli/commands/provider';
import type { CliIO } from '../../src/cli/io';
import { PROVIDER_SOURCE_ADDRESS } from '../../src/provider';
import {
  installProvider,
  ProviderInstallError,
  PROVIDER_INSTALL_ADDRESS,
  PROVIDER_NODE_FLAGS,
  providerVersion,
  terraformPlatform,
} from '../../src/distribution/install';
import { LAUNCHER_LINE } from '../../src/distribution/launcher';
import { defaultPluginDir } from '../../src/distribution/mirror-layout';
import { executableInPackage, platformPackageName, PROVIDER_NPM_PACKAGE } from '../../src/distribution/npm-packages';
import { hostExecutablePlatform, type ExecutablePlatform } from '../../src/distribution/platforms';
import { generateCertificate } from '../../src/tfplugin/protocol/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/tfplugin/protocol/plugin-server';
import { ensureProviderBundle } from '../e2e/helpers/bundle';
import { runTerraform, terraformEnv } from '../e2e/helpers/terraform';

const execFileAsync = promisify(execFile);
const pkg = require('../../package.json') as { version: string };

/** A stand-in bundle: installing does not care what the bundle does, only that it is copied whole. */
const FAKE_BUNDLE = "#!/usr/bin/env node\nprocess.stdout.write('fake provider bundle ran as ' + __filename + '\\n');\n";

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

/** This machine's executable platform; the tests of the executable's sources need one. */
function host(): ExecutablePlatform {
  const platform = hostExecutablePlatform();
  if (platform === undefined) throw new Error(`no executable platform for ${process.platform}/${process.arch}`);
  return platform;
}

/**
 * Writes an installed platform package into `<app>/node_modules` (or under `nested`, a package's
 * own node_modules) as npm would lay it out, holding `content` as its executable.
 */
async function writePlatformPackage(app: string, version: string, content: string, nested?: string): Promise<string> {
  const modules = nested === undefined ? join(app, 'node_modules') : join(app, 'node_modules', nested, 'node_modules');
  const dir = join(modules, ...platformPackageName(host()).split('/'));
  await mkdir(join(dir, 'bin'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: platformPackageName(host()), version }));
  await writeFile(join(dir, executableInPackage(host())), content, { mode: 0o755 });
  if (nested !== undefined) await writeFile(join(app, 'node_modules', nested, 'package.json'), JSON.stringify({ name: nested, version }));
  return dir;
}

describe('terraformPlatform', () => {
  it('names platforms the way Go does, Windows included', () => {
    expect(terraformPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(terraformPlatform('linux', 'arm64')).toBe('linux_arm64');
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
    expect(terraformPlatform('win32', 'x64')).toBe('windows_amd64');
  });

  it('refuses a system Terraform is not built for, naming it', () => {
    expect(() => terraformPlatform('aix', 'ppc64')).toThrow('cannot install the provider on aix: Terraform is not built for it.');
  });

  it('maps each platform with an executable to the npm os and cpu it is installed on', () => {
    expect(hostExecutablePlatform('linux', 'x64')?.name).toBe('linux_amd64');
    expect(hostExecutablePlatform('darwin', 'arm64')?.name).toBe('darwin_arm64');
    expect(hostExecutablePlatform('win32', 'x64')).toMatchObject({ name: 'windows_amd64', suffix: '.exe' });
    expect(hostExecutablePlatform('freebsd', 'x64')).toBeUndefined();
  });

  it("takes Terraform's implied mirror: ~/.terraform.d/plugins, %APPDATA%/terraform.d/plugins on Windows", () => {
    expect(defaultPluginDir('/home/a', 'linux', {})).toBe('/home/a/.terraform.d/plugins');
    expect(defaultPluginDir('/home/a', 'win32', { APPDATA: '/appdata' })).toBe('/appdata/terraform.d/plugins');
  });
});

describe('installProvider: the executable', () => {
  const version = pkg.version;

  it("installs the platform package's executable alone, found from the app's directory", async () => {
    const app = join(root, 'app');
    await writePlatformPackage(app, version, 'executable from npm');
    const dir = join(root, 'mirror');
    const installed = await installProvider({ dir, searchFrom: [app], executablesDir: join(root, 'none') });
    expect(installed).toEqual({
      address: PROVIDER_INSTALL_ADDRESS,
      version,
      platform: host().name,
      path: join(dir, 'registry.terraform.io', 'orgadmin', 'orgadmin', version, host().name, `terraform-provider-orgadmin_v${version}${host().suffix}`),
      status: 'installed',
      selfContained: true,
      from: platformPackageName(host()),
    });
    expect(await readdir(dirname(installed.path))).toEqual([`terraform-provider-orgadmin_v${version}${host().suffix}`]);
    expect(await readFile(installed.path, 'utf8')).toBe('executable from npm');
    expect((await stat(installed.path)).mode & 0o777).toBe(0o755);
    expect((await installProvider({ dir, searchFrom: [app] })).status).toBe('unchanged');
  });

  it('finds it as a dependency of orgadmin-provider where npm did not hoist it', async () => {
    const app = join(root, 'app');
    await writePlatformPackage(app, version, 'nested executable', PROVIDER_NPM_PACKAGE);
    const installed = await installProvider({ dir: join(root, 'mirror'), searchFrom: [app] });
    expect(await readFile(installed.path, 'utf8')).toBe('nested executable');
  });

  it('refuses a platform package of another version, saying which to install', async () => {
    const app = join(root, 'app');
    await writePlatformPackage(app, '0.0.1', 'old');
    await expect(installProvider({ dir: join(root, 'mirror'), searchFrom: [app] })).rejects.toThrow(
      `${platformPackageName(host())} 0.0.1 is installed, but this orgadmin is ${version}: run "npm install orgadmin-provider@${version}" so that both agree.`,
    );
    await expect(stat(join(root, 'mirror'))).rejects.toThrow(/ENOENT/);
  });

  it('says how to get the executable when neither a package nor a build has one, and creates nothing', async () => {
    const attempt = installProvider({ dir: join(root, 'mirror'), searchFrom: [root], executablesDir: join(root, 'none') });
    await expect(attempt).rejects.toThrow(ProviderInstallError);
    await expect(installProvider({ dir: join(root, 'mirror'), searchFrom: [root], executablesDir: join(root, 'none') })).rejects.toThrow(
      `the provider executable for ${host().name} is not installed: run "npm install orgadmin-provider@${version}" (it brings ${platformPackageName(host())}), ` +
        'or "npm run build" in an orgadmin checkout. orgadmin provider install --launcher installs the Node.js launcher instead.',
    );
    await expect(stat(join(root, 'mirror'))).rejects.toThrow(/ENOENT/);
  });
});

describe('installProvider: the launcher', () => {
  it('writes one file, the bundle started by Node.js with the system CA store, into the filesystem-mirror layout', async () => {
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
    expect(await readdir(packageDir)).toEqual([`terraform-provider-orgadmin_v${version}`]);
    expect(await readFile(result.path, 'utf8')).toBe(`${LAUNCHER_LINE}\n${FAKE_BUNDLE.slice(FAKE_BUNDLE.indexOf('\n') + 1)}`);
    expect(LAUNCHER_LINE).toBe('#!/usr/bin/env -S node --use-openssl-ca');
    expect((await stat(result.path)).mode & 0o777).toBe(0o755);
    // Nothing but the version directory's platform folder is left behind (no staging directories).
    expect(await readdir(dirname(packageDir))).toEqual([platform]);
  });

  it('runs as the file Terraform starts, under the launcher flags, with the environment Terraform gave it', async () => {
    await writeFile(bundlePath, "process.stdout.write(JSON.stringify([__filename, process.execArgv, process.env.NODE_EXTRA_CA_CERTS]));\n");
    const { path } = await installProvider({ dir: join(root, 'mirror'), launcher: true, bundlePath });
    const { stdout } = await execFileAsync(path, [], { env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: join(root, 'no-such.pem') } });
    expect(JSON.parse(stdout)).toEqual([path, [...PROVIDER_NODE_FLAGS], join(root, 'no-such.pem')]);
  });

  it('leaves identical files alone when run twice', async () => {
    const dir = join(root, 'mirror');
    const first = await installProvider({ dir, bundlePath });
    const before = await stat(first.path);
    const second = await installProvider({ dir, bundlePath });
    const after = await stat(first.path);
    expect(second.status).toBe('unchanged');
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  it('replaces a different build as a whole and leaves no temporary directories', async () => {
    const dir = join(root, 'mirror');
    const first = await installProvider({ dir, bundlePath });
    await writeFile(bundlePath, "process.stdout.write('second build\\n');\n");
    const second = await installProvider({ dir, bundlePath });
    expect(second.status).toBe('replaced');
    expect(second.path).toBe(first.path);
    expect(await readFile(second.path, 'utf8')).toContain('second build');
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
    await expect(installProvider({ dir, bundlePath: join(root, 'missing.js') })).rejects.toThrow(ProviderInstallError);
    await expect(installProvider({ dir, bundlePath: join(root, 'missing.js') })).rejects.toThrow(/npm run build:provider/);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
  });

  it('says which mirror it cannot write to when a file is in the way', async () => {
    const dir = join(root, 'not-a-directory');
    await writeFile(dir, 'a file');
    await expect(installProvider({ dir, bundlePath })).rejects.toThrow(ProviderInstallError);
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

describe('TLS trust of the launcher', () => {
  /** A bundle that fetches https://localhost:$TEST_PORT/ with an undici agent, as the provider does, and says whether it trusted the server. */
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
          'const agent = new Agent();',
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

  it('adds the certificates of NODE_EXTRA_CA_CERTS', async () => {
    expect(await fetchThroughLauncher({ NODE_EXTRA_CA_CERTS: certFile })).toBe('trusted');
  });
});

describe('orgadmin provider install', () => {
  // The command installs the real bundle from dist/provider.
  beforeAll(() => ensureProviderBundle(), 120_000);

  it('installs a launcher that, executed as Terraform does, prints the go-plugin handshake with TLS', async () => {
    const { path } = await installProvider({ dir: join(root, 'mirror'), launcher: true });
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

  it('prints the address, version, path and where the executable came from', async () => {
    await writePlatformPackage(root, pkg.version, 'executable from npm');
    const io = memoryIO({ HOME: join(root, 'home') });
    const code = await runProviderCommand(['install', '--dir', 'mirror'], io);
    expect(io.err.join('')).toBe('');
    expect(code).toBe(0);
    const out = io.out.join('');
    expect(out).toContain('registry.terraform.io/orgadmin/orgadmin');
    expect(out).toContain(pkg.version);
    expect(out).toContain(join(root, 'mirror', 'registry.terraform.io', 'orgadmin', 'orgadmin', pkg.version));
    expect(out).toContain(`self-contained executable from ${platformPackageName(host())}`);
    // Not an implied mirror: the output says how to configure Terraform for it.
    expect(out).toContain(`path    = ${JSON.stringify(join(root, 'mirror'))}`);
  });

  it('prints JSON with --json and defaults to ~/.terraform.d/plugins of the given HOME', async () => {
    const home = join(root, 'home');
    const io = memoryIO({ HOME: home });
    expect(await runProviderCommand(['install', '--launcher', '--json'], io)).toBe(0);
    const result = JSON.parse(io.out.join('')) as { path: string; version: string; status: string };
    expect(result.path.startsWith(join(home, '.terraform.d', 'plugins', 'registry.terraform.io', 'orgadmin', 'orgadmin'))).toBe(true);
    expect(result.version).toBe(pkg.version);
    expect((await stat(result.path)).isFile()).toBe(true);
  });

  it('does not ask for a CLI configuration when installing into ~/.terraform.d/plugins', async () => {
    const io = memoryIO({ HOME: join(root, 'home') });
    expect(await runProviderCommand(['install', '--launcher'], io)).toBe(0);
    expect(io.out.join('')).toContain('Installed registry.terraform.io/orgadmin/orgadmin');
    expect(io.out.join('')).toContain('launcher; needs Node.js on PATH');
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
    const installed = await installProvider({ dir: join(home, '.terraform.d', 'plugins'), launcher: true });
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

  it('locks a hash that covers the whole provider, so a different build under the same version is refused', async () => {
    const home = join(root, 'home');
    const work = join(root, 'work');
    const plugins = join(home, '.terraform.d', 'plugins');
    await installProvider({ dir: plugins, bundlePath });
    await mkdir(work);
    await writeFile(join(work, 'main.tf'), 'terraform {\n  required_providers {\n    orgadmin = { source = "orgadmin/orgadmin" }\n  }\n}\n');
    const env = terraformEnv({ HOME: home });
    expect((await runTerraform(work, ['init', '-no-color', '-input=false'], env)).code).toBe(0);

    await writeFile(bundlePath, "process.stdout.write('tampered\\n');\n");
    expect((await installProvider({ dir: plugins, bundlePath })).status).toBe('replaced');
    const again = await runTerraform(work, ['init', '-no-color', '-input=false'], env);

    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/doesn't match any of the\s+checksums previously recorded in the dependency lock file/);
  });
});
