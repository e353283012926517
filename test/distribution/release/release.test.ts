/**
 * `orgadmin provider release`: the files a Terraform registry expects, signed with GPG, for all
 * five platforms (each archive's executable checked for its format and CPU: ELF, Mach-O with a
 * code signature macOS accepts, PE), and reproducible builds.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runProviderCommand } from '../../../src/cli/commands/provider';
import type { CliIO } from '../../../src/cli/io';
import { defaultBundlePath, executableName, providerVersion } from '../../../src/distribution/package-info';
import { tarEntry } from '../../../src/distribution/bun-runtime';
import { codeSignature } from '../../../src/distribution/macho-signature';
import { executableInPackage, platformPackageName } from '../../../src/distribution/npm-packages';
import { EXECUTABLE_PLATFORMS } from '../../../src/distribution/platforms';
import { releaseFileNames, releaseProvider } from '../../../src/distribution/release';
import { ensureExecutables, ensureHostExecutable, EXECUTABLES_DIR, generateGpgKey, handshake, hostPlatform, type GpgKey } from './helpers';

const version = providerVersion();
const names = releaseFileNames(version);
let root: string;
let executable: string;

beforeAll(() => {
  executable = ensureHostExecutable(version);
}, 300_000);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgadmin-release-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function memoryIO(env: NodeJS.ProcessEnv = {}): CliIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: root };
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

describe('orgadmin provider release', () => {
  let key: GpgKey;

  beforeAll(async () => {
    key = generateGpgKey(await mkdtemp('/tmp/gpg-'));
  });

  afterAll(async () => {
    key.close();
    await rm(key.env.GNUPGHOME!, { recursive: true, force: true });
  });

  it('writes exactly the registry layout: zip per platform, manifest, SHA256SUMS and its detached signature', async () => {
    const platform = hostPlatform();
    const io = memoryIO(key.env);
    const code = await runProviderCommand(['release', '--out', 'dist-release', '--signing-key', key.fingerprint, '--platforms', platform.name], io);
    expect(io.err.join('')).toBe('');
    expect(code).toBe(0);
    const out = join(root, 'dist-release');
    expect((await readdir(out)).sort()).toEqual([names.shasums, names.signature, names.zip(platform.name), names.manifest].sort());
    expect(io.out.join('')).toContain(names.zip(platform.name));

    expect(await readFile(join(out, names.manifest), 'utf8')).toBe('{\n  "version": 1,\n  "metadata": {\n    "protocol_versions": [\n      "6.0"\n    ]\n  }\n}\n');
    expect(JSON.parse(await readFile(join(out, names.manifest), 'utf8'))).toEqual({ version: 1, metadata: { protocol_versions: ['6.0'] } });

    // Two spaces between hash and name, as sha256sum writes it; every other file listed.
    const zip = await readFile(join(out, names.zip(platform.name)));
    const manifest = await readFile(join(out, names.manifest));
    expect(await readFile(join(out, names.shasums), 'utf8')).toBe(
      [`${sha256(manifest)}  ${names.manifest}`, `${sha256(zip)}  ${names.zip(platform.name)}`].sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1)).join('\n') + '\n',
    );
    expect(execFileSync('sha256sum', ['--check', '--strict', names.shasums], { cwd: out, encoding: 'utf8' })).toContain(': OK');

    // A binary detached signature by the given key, over SHA256SUMS.
    const verify = execFileSync('gpg', ['--batch', '--status-fd', '1', '--verify', names.signature, names.shasums], {
      cwd: out,
      env: key.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(verify).toContain(`[GNUPG:] VALIDSIG ${key.fingerprint}`);
    expect((await readFile(join(out, names.signature)))[0]! & 0x80).toBe(0x80); // an OpenPGP packet, not armor

    // The zip holds exactly the executable, executable, byte for byte.
    expect(execFileSync('unzip', ['-Z', '-1', names.zip(platform.name)], { cwd: out, encoding: 'utf8' })).toBe(`${executableName(version)}\n`);
    expect(execFileSync('unzip', ['-Z', names.zip(platform.name)], { cwd: out, encoding: 'utf8' })).toMatch(/^-rwxr-xr-x /m);
    const unpacked = execFileSync('unzip', ['-p', names.zip(platform.name)], { cwd: out, maxBuffer: 512 * 1024 * 1024 });
    expect(unpacked.equals(await readFile(executable))).toBe(true);
  }, 120_000);

  it('names the platforms it builds when asked for another, and writes nothing', async () => {
    await expect(runProviderCommand(['release', '--out', 'none', '--platforms', 'plan9_amd64'], memoryIO())).rejects.toThrow(
      'unknown platform "plan9_amd64": the executable can be built for linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64.',
    );
    expect(await readdir(root)).toEqual([]);
  });

  it('releases all five platforms by default, each zip holding an executable of its format and CPU', async () => {
    ensureExecutables(Object.values(EXECUTABLE_PLATFORMS));
    const io = memoryIO(key.env);
    expect(await runProviderCommand(['release', '--out', 'all', '--signing-key', key.fingerprint, '--npm', '--json'], io)).toBe(0);
    const out = join(root, 'all');
    const platforms = Object.values(EXECUTABLE_PLATFORMS);
    expect((await readdir(out)).sort()).toEqual([names.shasums, names.signature, names.manifest, 'npm', ...platforms.map((p) => names.zip(p.name))].sort());
    // --npm: the five platform packages, each holding its platform's executable.
    const { npmPackages } = JSON.parse(io.out.join('')) as { npmPackages: string[] };
    expect(npmPackages.sort()).toEqual(platforms.map((p) => join(out, 'npm', `orgadmin-provider-${p.nodePlatform}-${p.nodeArch}-${version}.tgz`)).sort());
    for (const platform of platforms) {
      const tar = gunzipSync(await readFile(join(out, 'npm', `orgadmin-provider-${platform.nodePlatform}-${platform.nodeArch}-${version}.tgz`)));
      const manifest = JSON.parse(tarEntry(tar, 'package/package.json')!.toString('utf8')) as { name: string; os: string[]; cpu: string[] };
      expect(manifest).toMatchObject({ name: platformPackageName(platform), os: [platform.nodePlatform], cpu: [platform.nodeArch] });
      const built = await readFile(join(EXECUTABLES_DIR, platform.name, executableName(version, platform.suffix)));
      expect({ platform: platform.name, same: tarEntry(tar, `package/${executableInPackage(platform)}`)?.equals(built) }).toEqual({ platform: platform.name, same: true });
    }
    expect(execFileSync('sha256sum', ['--check', '--strict', names.shasums], { cwd: out, encoding: 'utf8' }).match(/: OK$/gm)).toHaveLength(6);
    const unpack = (platform: string): Buffer => execFileSync('unzip', ['-p', names.zip(platform)], { cwd: out, maxBuffer: 512 * 1024 * 1024 });
    const inside = (platform: string): string => execFileSync('unzip', ['-Z', '-1', names.zip(platform)], { cwd: out, encoding: 'utf8' });

    // ELF, x86-64 (62) and AArch64 (183).
    for (const [platform, machine] of [['linux_amd64', 62], ['linux_arm64', 183]] as const) {
      const elf = unpack(platform);
      expect({ platform, magic: elf.subarray(0, 4).toString('latin1'), machine: elf.readUInt16LE(18) }).toEqual({ platform, magic: '\x7fELF', machine });
    }
    // Mach-O 64-bit, x86-64 (0x01000007) unsigned, arm64 (0x0100000c) with an ad-hoc signature
    // that matches every page, as macOS on Apple silicon requires.
    for (const [platform, cpu, signature] of [['darwin_amd64', 0x01000007, 'absent'], ['darwin_arm64', 0x0100000c, 'valid']] as const) {
      const macho = unpack(platform);
      expect({ platform, magic: macho.readUInt32LE(0), cpu: macho.readUInt32LE(4), signature: codeSignature(macho) }).toEqual({ platform, magic: 0xfeedfacf, cpu, signature });
    }
    // PE32+ for AMD64, a console program, named .exe as Terraform on Windows wants.
    expect(inside('windows_amd64')).toBe(`${executableName(version)}.exe\n`);
    const pe = unpack('windows_amd64');
    const header = pe.readUInt32LE(0x3c);
    expect({
      mz: pe.subarray(0, 2).toString('latin1'),
      signature: pe.subarray(header, header + 4).toString('latin1'),
      machine: pe.readUInt16LE(header + 4),
      optionalMagic: pe.readUInt16LE(header + 24),
      subsystem: pe.readUInt16LE(header + 24 + 68),
    }).toEqual({ mz: 'MZ', signature: 'PE\0\0', machine: 0x8664, optionalMagic: 0x20b, subsystem: 3 });
    // Every zip's executable is the one built for that platform.
    for (const platform of platforms) {
      const built = await readFile(join(EXECUTABLES_DIR, platform.name, executableName(version, platform.suffix)));
      expect({ platform: platform.name, same: unpack(platform.name).equals(built) }).toEqual({ platform: platform.name, same: true });
    }
    // Five executables of about 100 MiB, zipped and packed: minutes on a shared two-core machine.
  }, 900_000);

  it('needs --out', async () => {
    await expect(runProviderCommand(['release'], memoryIO())).rejects.toThrow(/needs --out DIR/);
  });

  it('says which signing key gpg does not have, before writing anything', async () => {
    const io = memoryIO(key.env);
    await expect(
      runProviderCommand(['release', '--out', 'r', '--signing-key', 'no-such-key@example.com', '--platforms', hostPlatform().name], io),
    ).rejects.toThrow(/^no secret GPG key no-such-key@example.com: /);
    expect(await readdir(root)).toEqual([]);
  }, 60_000);
});

describe('reproducible releases', () => {
  it('two builds give the same SHA256SUMS; the linux_arm64 executable shakes hands under AArch64 emulation', async () => {
    const bundle = await readFile(defaultBundlePath());
    const build = (n: number) =>
      releaseProvider({
        outDir: join(root, `release-${n}`),
        version,
        bundle,
        platforms: [EXECUTABLE_PLATFORMS.linux_arm64!],
        executablesDir: join(root, `executables-${n}`),
      });
    const first = await build(1);
    const second = await build(2);
    expect(first.archives[0]!.executable.bytecode).toBe(true);
    expect(await readFile(join(first.dir, names.shasums), 'utf8')).toBe(await readFile(join(second.dir, names.shasums), 'utf8'));
    const elf = execFileSync('unzip', ['-p', join(first.dir, names.zip('linux_arm64'))], { maxBuffer: 512 * 1024 * 1024 });
    expect(elf.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(elf.readUInt16LE(18)).toBe(183); // e_machine EM_AARCH64

    // Run it: qemu's user-mode AArch64 emulator with Debian's AArch64 C libraries (.ci/run installs
    // qemu-user-static, libc6-arm64-cross, libstdc++6-arm64-cross).
    const file = join(root, executableName(version));
    await writeFile(file, elf, { mode: 0o755 });
    const sockets = await mkdtemp(join(root, 'sockets-'));
    const line = await handshake('qemu-aarch64-static', ['-L', '/usr/aarch64-linux-gnu', file], sockets);
    expect(line).toMatch(/^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/]+\n$/);
  }, 180_000);
});
