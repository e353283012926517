#!/usr/bin/env node
/**
 * Start-up time of the bundled provider: from spawn to the go-plugin handshake line on stdout,
 * with TLS on (a client certificate made by the provider's own certificate module, as Terraform
 * would pass it) — compared with `node -e ''`, the floor of any Node.js process.
 *
 * Terraform starts the provider three times per plan or apply, so this time is paid three times.
 *
 * Usage: node bench/provider-startup.mjs [[LABEL=]EXECUTABLE...] [--runs N] [--node-arg FLAG]... [--keep-env NAME]... [--floor]
 *   With EXECUTABLEs: measures each (the first is the "provider" row unless LABEL= names it),
 *   interleaved with `node -e ''`.
 *   Without: installs dist/provider/terraform-provider-orgadmin.js (built first when missing) into
 *   a temporary filesystem mirror with src/distribution/install.ts as the Node.js launcher, as
 *   `orgadmin provider install --launcher` does, and measures it as the "provider" row, next to the
 *   self-contained executable of this platform when `npm run build` built one
 *   (dist/provider/executables/<os>_<arch>/), and the floor.
 *   The floor (always without EXECUTABLEs, with them when `--floor` is given): what any Node.js
 *   provider must do before its handshake and nothing else (bench/plugin-server-floor.mjs), run
 *   by its `#!/usr/bin/env node` line. It shows how far below the provider's start Node.js itself
 *   allows to go. A second floor does the same on `node:http2`: what a provider built on Node.js's
 *   own HTTP/2 could not go below.
 * Every executable is executed directly, as Terraform starts a provider: its own `#!` line picks
 * the interpreter and its flags (the launcher's `#!/usr/bin/env -S node --use-openssl-ca`),
 * so what the flags and `/usr/bin/env` cost or save is measured too. With `--node-arg FLAG`, each
 * executable is started as `node FLAG... FILE` instead (`#!` line ignored), for trying out flags.
 * Every process gets only the variables Terraform's handshake needs, PATH and TMPDIR, plus those
 * named by `--keep-env NAME`, copied from this process (e.g. NODE_EXTRA_CA_CERTS, which Node.js
 * parses at every start, `node -e ''` included).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAGIC_COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';

function parseArgs(argv) {
  const executables = [];
  let runs = 20;
  const nodeArgs = [];
  const keptEnv = [];
  let withFloor = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--floor') withFloor = true;
    else if (argv[i] === '--node-arg') nodeArgs.push(argv[++i]);
    else if (argv[i] === '--keep-env') keptEnv.push(argv[++i]);
    else {
      const labelled = /^([^=/]+)=(.+)$/.exec(argv[i]);
      executables.push(labelled ? { label: labelled[1], path: resolve(labelled[2]) } : { path: resolve(argv[i]) });
    }
  }
  return { executables, runs, nodeArgs, keptEnv, withFloor };
}

/**
 * Loads a TypeScript module of src/ through esbuild (the bench is plain JS), compiled as if it
 * sat at its own place in src/ (install.ts finds package.json from its directory).
 */
async function loadSourceModule(relativePath) {
  const esbuild = require('esbuild');
  const file = join(root, relativePath);
  const result = await esbuild.build({ entryPoints: [file], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning' });
  const Module = require('node:module');
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  mod._compile(result.outputFiles[0].text, file.replace(/\.ts$/, '.js'));
  return mod.exports;
}

async function ensureBundle(bundle) {
  if (bundle) return { path: bundle, cleanup: () => {} };
  const defaultPath = join(root, 'dist/provider/terraform-provider-orgadmin.js');
  if (existsSync(defaultPath)) return { path: defaultPath, cleanup: () => {} };
  const { execFileSync } = await import('node:child_process');
  const main = join(root, 'src/provider/main.ts');
  if (existsSync(main)) {
    execFileSync(process.execPath, [join(root, 'scripts/build-provider.mjs')], { stdio: 'inherit' });
    return { path: defaultPath, cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'provider-bench-'));
  const out = join(dir, 'terraform-provider-demo.js');
  execFileSync(process.execPath, [join(root, 'scripts/build-provider.mjs'), join(root, 'test/tfplugin/framework/fixtures/demo-main.ts'), '--out', out], {
    stdio: 'inherit',
  });
  return { path: out, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * bench/plugin-server-floor.mjs bundled into an executable script of its own (`#!/usr/bin/env
 * node`, as the bundle run directly): only what any Node.js provider must do before its handshake.
 * `transport` 'tls' is Node.js's TLS server alone (what the provider, which frames HTTP/2 itself,
 * needs); 'http2' Node.js's HTTP/2 server (what a provider on node:http2 needs).
 */
async function buildFloor(transport) {
  const esbuild = require('esbuild');
  const dir = mkdtempSync(join(tmpdir(), `provider-bench-floor-${transport}-`));
  const out = join(dir, 'plugin-server-floor.js');
  await esbuild.build({
    entryPoints: [join(root, 'bench/plugin-server-floor.mjs')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    banner: { js: '#!/usr/bin/env node' },
    define: { 'process.env.ORGADMIN_FLOOR_TRANSPORT': JSON.stringify(transport) },
    logLevel: 'warning',
  });
  chmodSync(out, 0o755);
  return { path: out, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The labels of the floors' rows, by transport (bench/provider.mjs reads them). */
const FLOOR_LABELS = { tls: 'floor: Node.js mTLS plugin server (node:tls)', http2: 'floor with node:http2: the same on Node.js HTTP/2' };

/** The go-plugin handshake line the provider prints on stdout. */
const HANDSHAKE = /^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/]+\n$/;

/**
 * Milliseconds from spawning `command` with `args` until the handshake line (`untilHandshake`,
 * then the provider is stopped) or until it exits. `runProcess` is src/cli/process-runner.ts.
 */
async function timeRun(runProcess, command, args, env, untilHandshake) {
  const result = await runProcess(command, args, {
    env,
    stderr: 'ignore',
    ...(untilHandshake ? { stopWhen: (stdout) => stdout.includes('\n') } : {}),
  });
  if (!untilHandshake) return result.elapsedMs;
  if (result.stoppedAfterMs === undefined) throw new Error(`no handshake: exited ${result.code} with ${JSON.stringify(result.stdout)}`);
  const line = result.stdout.slice(0, result.stdout.indexOf('\n') + 1);
  if (!HANDSHAKE.test(line)) throw new Error(`bad handshake: ${line}`);
  return result.stoppedAfterMs;
}

async function main() {
  const { executables, runs, nodeArgs, keptEnv, withFloor } = parseArgs(process.argv.slice(2));
  const cleanups = [];
  try {
    const targets = [];
    if (executables.length > 0) {
      executables.forEach(({ label, path }, i) =>
        targets.push({ label: label ?? (i === 0 ? 'provider, spawn to handshake (TLS)' : `${path}, spawn to handshake`), path }),
      );
    } else {
      const bundle = await ensureBundle(undefined);
      cleanups.push(bundle.cleanup);
      const { installProvider } = await loadSourceModule('src/distribution/install.ts');
      const mirror = mkdtempSync(join(tmpdir(), 'provider-bench-mirror-'));
      cleanups.push(() => rmSync(mirror, { recursive: true, force: true }));
      const installed = await installProvider({ dir: mirror, launcher: true, bundlePath: bundle.path });
      targets.push({ label: 'provider, spawn to handshake (TLS)', path: installed.path });
      const { hostExecutablePlatform } = await loadSourceModule('src/distribution/platforms.ts');
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const host = hostExecutablePlatform();
      const executable = host && join(root, 'dist/provider/executables', host.name, `terraform-provider-orgadmin_v${version}`);
      if (executable && existsSync(executable)) targets.push({ label: 'self-contained executable', path: executable });
    }
    if (executables.length === 0 || withFloor) {
      for (const [transport, label] of Object.entries(FLOOR_LABELS)) {
        const floor = await buildFloor(transport);
        cleanups.push(floor.cleanup);
        targets.push({ label, path: floor.path });
      }
    }
    const { generateCertificate } = await loadSourceModule('src/tfplugin/protocol/certificate.ts');
    const { runProcess } = await loadSourceModule('src/cli/process-runner.ts');
    const clientCert = generateCertificate().certPem;
    // The provider's socket directories go to a private TMPDIR, removed at the end.
    const socketTmp = mkdtempSync(join(tmpdir(), 'provider-bench-sockets-'));
    cleanups.push(() => rmSync(socketTmp, { recursive: true, force: true }));
    const env = {
      PATH: process.env.PATH,
      TMPDIR: socketTmp,
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE,
      PLUGIN_PROTOCOL_VERSIONS: '5,6',
      PLUGIN_MIN_PORT: '10000',
      PLUGIN_MAX_PORT: '25000',
      PLUGIN_CLIENT_CERT: clientCert,
    };
    for (const name of keptEnv) if (process.env[name] !== undefined) env[name] = process.env[name];
    // Executed by its `#!` line, like Terraform does; or under `node FLAG...` when flags are given.
    const startTarget = (target) =>
      nodeArgs.length > 0 ? timeRun(runProcess, process.execPath, [...nodeArgs, target.path], env, true) : timeRun(runProcess, target.path, [], env, true);
    const baseline = [];
    const times = targets.map(() => []);
    // Interleave them all so machine noise hits each alike; one warm-up each.
    await timeRun(runProcess, process.execPath, ['-e', ''], env, false);
    for (const target of targets) await startTarget(target);
    for (let i = 0; i < runs; i++) {
      baseline.push(await timeRun(runProcess, process.execPath, ['-e', ''], env, false));
      for (const [t, target] of targets.entries()) times[t].push(await startTarget(target));
    }
    const b = median(baseline);
    const row = (label, values) => [label, median(values).toFixed(1), Math.min(...values).toFixed(1), Math.max(...values).toFixed(1)];
    const rows = [['what', 'median ms', 'min ms', 'max ms'], row("node -e ''", baseline), ...targets.map((target, t) => row(target.label, times[t]))];
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const r of rows) process.stdout.write(`${r.map((cell, c) => cell.padEnd(widths[c])).join('  ')}\n`);
    for (const [t, target] of targets.entries()) {
      const ratio = (median(times[t]) / b).toFixed(2);
      const what = t === 0 ? 'provider' : target.label;
      const head = readFileSync(target.path).subarray(0, 200).toString('latin1');
      const startedBy = nodeArgs.length > 0 ? `node ${nodeArgs.join(' ')} FILE` : head.startsWith('#!') ? head.split('\n', 1)[0] : 'itself (native executable)';
      process.stdout.write(`ratio ${what} / node -e '': ${ratio}x${t === 0 ? ' (target <= 2.5x)' : ''}; ${runs} runs each; started by ${startedBy}; ${target.path}\n`);
    }
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
