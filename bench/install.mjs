#!/usr/bin/env node
/**
 * What installing the package costs a user of the constructs (`npm run bench:install`, which
 * builds first). Packs this checkout with `npm pack` (and packages/orgadmin-service, when present),
 * installs the tarballs into empty apps as a user would, and prints one table:
 *
 *   - install wall time (median of BENCH_RUNS, default 3, sides alternating; a first untimed
 *     install per app warms a private npm cache, and the timed ones use it with --prefer-offline,
 *     so the registry's speed is not measured);
 *   - node_modules size, package count, native addons (`*.node` files, built or shipped) and
 *     packages whose install script ran a native build (`binding.gyp`);
 *   - `require('orgadmin')`: wall time and modules loaded, in a fresh Node process.
 *
 * BENCH_BASELINE=/path/to/other/checkout (built with `npm run build`) adds the same rows for that
 * checkout, measured in the same run, so a change is reported as before/after side by side.
 * BENCH_SERVICE=0 leaves out the row with orgadmin-service (its native build takes minutes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TOOLKIT = ['cdktf@0.21', 'constructs@10.7'];

/** Packs `dir` into `out` and returns the tarball's path. */
function pack(dir, out) {
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  return join(out, name);
}

/** Every file under `dir` (no symlinks followed), with its size. */
function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield { path, size: statSync(path).size };
  }
}

/** Size, package count, native addons and native builds of an installed node_modules. */
function inspect(appDir) {
  const modules = join(appDir, 'node_modules');
  let bytes = 0;
  let packages = 0;
  const addons = [];
  const builds = new Set();
  for (const { path, size } of walk(modules)) {
    bytes += size;
    if (path.endsWith('/package.json') && /node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(path)) packages += 1;
    if (path.endsWith('.node')) addons.push(path.slice(modules.length + 1));
    if (path.endsWith('/binding.gyp')) builds.add(path.slice(modules.length + 1, -'/binding.gyp'.length));
  }
  return { mib: bytes / 2 ** 20, packages, addons, builds: [...builds] };
}

/** Wall time and module count of `require('orgadmin')` in a fresh process in `appDir`. */
function requireCost(appDir) {
  const script =
    "const t=process.hrtime.bigint();require('orgadmin');" +
    'const ms=Number(process.hrtime.bigint()-t)/1e6;' +
    "console.log(JSON.stringify({ms,modules:Object.keys(require.cache).length,cdktf:Object.keys(require.cache).some(k=>k.includes('/node_modules/cdktf/'))}))";
  const samples = [];
  for (let i = 0; i < 5; i++) samples.push(JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: appDir, encoding: 'utf8' })));
  return { ms: median(samples.map((s) => s.ms)), modules: samples[0].modules, loadsCdktf: samples[0].cdktf };
}

/** One timed `npm install` of `specs` into a new empty app under `base`; returns its directory and time. */
async function install(base, label, specs, cache, warm) {
  const appDir = await mkdtemp(join(base, `${label}-`));
  await writeFile(join(appDir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const args = ['install', '--no-audit', '--no-fund', '--cache', cache, ...(warm ? [] : ['--prefer-offline']), ...specs];
  const started = performance.now();
  execFileSync('npm', args, { cwd: appDir, stdio: ['ignore', 'ignore', 'pipe'] });
  return { appDir, ms: performance.now() - started };
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run "npm run bench:install" (it builds first)');
  const base = await mkdtemp(join(tmpdir(), 'orgadmin-bench-install-'));
  const cache = join(base, 'npm-cache');
  await mkdir(join(base, 'packs'));
  try {
    const sides = [];
    const baseline = process.env.BENCH_BASELINE;
    // Each side packs into its own folder: both tarballs are named orgadmin-<version>.tgz.
    const packsFor = async (side) => {
      const dir = join(base, 'packs', side);
      await mkdir(dir, { recursive: true });
      return dir;
    };
    if (baseline) sides.push({ label: 'before', packages: [pack(resolve(baseline), await packsFor('before'))] });
    const current = [pack(ROOT, await packsFor('current'))];
    sides.push({ label: baseline ? 'after' : 'this checkout', packages: current });
    const servicePackage = join(ROOT, 'packages', 'orgadmin-service');
    if (existsSync(servicePackage) && process.env.BENCH_SERVICE !== '0') {
      sides.push({ label: `${baseline ? 'after' : 'this checkout'}, + orgadmin-service`, packages: [...current, pack(servicePackage, await packsFor('current'))] });
    }

    const rows = sides.map((side) => ({ ...side, times: [], app: undefined }));
    for (const row of rows) row.app = (await install(base, 'warm', [...row.packages, ...TOOLKIT], cache, true)).appDir;
    for (let run = 0; run < RUNS; run++) {
      for (const row of run % 2 ? [...rows].reverse() : rows) {
        const { appDir, ms } = await install(base, 'timed', [...row.packages, ...TOOLKIT], cache, false);
        row.times.push(ms);
        await rm(appDir, { recursive: true, force: true });
      }
    }

    const [one, five, fifteen] = loadavg();
    console.log(`\nInstalling orgadmin into an empty app with ${TOOLKIT.join(' ')} (median of ${RUNS}, warm private npm cache)`);
    console.log(`load average ${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)}; node ${process.version}\n`);
    console.log('| install | time | node_modules | packages | native addons | native builds | require(\'orgadmin\') | loads cdktf |');
    console.log('|---|---|---|---|---|---|---|---|');
    const first = median(rows[0].times);
    for (const row of rows) {
      const facts = inspect(row.app);
      const cost = requireCost(row.app);
      const time = median(row.times);
      console.log(
        `| ${row.label} | ${(time / 1000).toFixed(1)} s (${(time / first).toFixed(2)}×) | ${facts.mib.toFixed(1)} MiB | ${facts.packages} | ` +
          `${facts.addons.length}${facts.addons.length ? ` (${facts.addons.join(', ')})` : ''} | ${facts.builds.join(', ') || 'none'} | ` +
          `${cost.ms.toFixed(0)} ms, ${cost.modules} modules | ${cost.loadsCdktf ? 'yes' : 'no'} |`,
      );
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
