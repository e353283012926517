#!/usr/bin/env node
/**
 * Start-up time of the bundled provider: from spawn to the go-plugin handshake line on stdout,
 * with TLS on (a client certificate made by the provider's own certificate module, as Terraform
 * would pass it) — compared with `node -e ''`, the floor of any Node.js process.
 *
 * Terraform starts the provider three times per plan or apply, so this time is paid three times.
 *
 * Usage: node bench/provider-startup.mjs [BUNDLE] [--runs N] [--node-arg FLAG]...
 *   BUNDLE defaults to dist/provider/terraform-provider-orgadmin.js, built first when missing
 *   (from src/provider/main.ts, or the framework's demo provider while main.ts does not exist).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAGIC_COOKIE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';

function parseArgs(argv) {
  let bundle;
  let runs = 20;
  const nodeArgs = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--node-arg') nodeArgs.push(argv[++i]);
    else bundle = resolve(argv[i]);
  }
  return { bundle, runs, nodeArgs };
}

/** Loads src/provider/protocol/certificate.ts through esbuild (the bench is plain JS). */
async function loadCertificateModule() {
  const esbuild = require('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, 'src/provider/protocol/certificate.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
  });
  const Module = require('node:module');
  const mod = new Module('certificate.js');
  mod._compile(result.outputFiles[0].text, join(root, 'certificate.js'));
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
  execFileSync(process.execPath, [join(root, 'scripts/build-provider.mjs'), join(root, 'test/provider/framework/fixtures/demo-main.ts'), '--out', out], {
    stdio: 'inherit',
  });
  return { path: out, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Milliseconds from spawn until `done(child)` resolves. */
function timeRun(args, env, untilHandshake) {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.on('error', reject);
    if (untilHandshake) {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('\n')) {
          const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
          if (!/^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/]+\n$/.test(output)) reject(new Error(`bad handshake: ${output}`));
          child.kill('SIGTERM');
          child.once('exit', () => resolvePromise(elapsed));
        }
      });
    } else {
      child.once('exit', () => resolvePromise(Number(process.hrtime.bigint() - started) / 1e6));
    }
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const { bundle, runs, nodeArgs } = parseArgs(process.argv.slice(2));
  const target = await ensureBundle(bundle);
  const cleanups = [target.cleanup];
  try {
    const { generateCertificate } = await loadCertificateModule();
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
    const baseline = [];
    const provider = [];
    // Interleave the two so machine noise hits both alike; one warm-up each.
    await timeRun(['-e', ''], env, false);
    await timeRun([...nodeArgs, target.path], env, true);
    for (let i = 0; i < runs; i++) {
      baseline.push(await timeRun(['-e', ''], env, false));
      provider.push(await timeRun([...nodeArgs, target.path], env, true));
    }
    const b = median(baseline);
    const p = median(provider);
    const rows = [
      ['what', 'median ms', 'min ms', 'max ms'],
      ["node -e ''", b.toFixed(1), Math.min(...baseline).toFixed(1), Math.max(...baseline).toFixed(1)],
      ['provider, spawn to handshake (TLS)', p.toFixed(1), Math.min(...provider).toFixed(1), Math.max(...provider).toFixed(1)],
    ];
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    for (const row of rows) process.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c])).join('  ')}\n`);
    process.stdout.write(`ratio provider / node -e '': ${(p / b).toFixed(2)}x (target <= 2.5x; ${runs} runs each; bundle ${target.path})\n`);
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
