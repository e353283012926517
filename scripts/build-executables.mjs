#!/usr/bin/env node
/**
 * Builds the Terraform provider as self-contained executables (the provider bundle compiled by Bun)
 * from dist/provider/terraform-provider-orgadmin.js, into
 * dist/provider/executables/<os>_<arch>/terraform-provider-orgadmin_v<version>[.exe].
 *
 * Usage:
 *   node scripts/build-executables.mjs                    this machine's platform (what `npm run build` runs);
 *                                                         a warning, not a failure, where it cannot be built
 *                                                         (no npm registry to fetch Bun's runtime from)
 *   node scripts/build-executables.mjs --platforms linux_amd64,windows_amd64 [--no-bytecode]
 *   node scripts/build-executables.mjs --all              every platform
 *
 * An executable already built from the same bundle, Bun and options is kept. Each target's Bun
 * runtime comes from the npm registry (`npm pack @oven/bun-<target>@<the bun dev dependency's
 * version>`) into ~/.cache/orgadmin/bun (ORGADMIN_BUN_CACHE to move it). The logic lives in
 * src/distribution/, which `orgadmin provider release` uses too; it is compiled here on the fly,
 * so this script works before and without `tsc`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Compiles src/distribution/*.ts into one module, placed as if it sat in that directory. */
function loadDistribution() {
  const esbuild = require('esbuild');
  const dir = join(root, 'src/distribution');
  const contents = ['executable', 'platforms', 'package-info'].map((name) => `Object.assign(module.exports, require('./${name}'));`).join('\n');
  const result = esbuild.buildSync({
    stdin: { contents, resolveDir: dir, loader: 'js', sourcefile: 'build-executables-entry.js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const Module = require('node:module');
  const file = join(dir, 'build-executables-entry.js');
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dir);
  mod._compile(result.outputFiles[0].text, file);
  return mod.exports;
}

async function main(argv) {
  let platformList;
  let bytecode = true;
  const dist = loadDistribution();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--platforms') platformList = argv[++i] ?? '';
    else if (argv[i] === '--all') platformList = Object.keys(dist.EXECUTABLE_PLATFORMS).join(',');
    else if (argv[i] === '--no-bytecode') bytecode = false;
    else if (argv[i] === '--help') {
      process.stdout.write('usage: node scripts/build-executables.mjs [--platforms os_arch,... | --all] [--no-bytecode]\n');
      return;
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  let platforms;
  if (platformList === undefined) {
    const host = dist.hostExecutablePlatform();
    if (host === undefined) {
      process.stdout.write(`build-executables: no executable for ${process.platform}/${process.arch}; the provider installs as the Node.js launcher there.\n`);
      return;
    }
    platforms = [host];
  } else {
    platforms = dist.parsePlatforms(platformList);
  }
  const bundlePath = dist.defaultBundlePath();
  if (!existsSync(bundlePath)) throw new Error(`${bundlePath} is missing: run "npm run build:provider" first`);
  const bundle = readFileSync(bundlePath);
  const version = dist.providerVersion();
  for (const platform of platforms) {
    const started = Date.now();
    let built;
    try {
      built = await dist.buildExecutable({ platform, bundle, version, outDir: dist.defaultExecutablesDir(), bytecode });
    } catch (error) {
      // In `npm run build` (no --platforms) an offline machine still gets a working build: the
      // launcher can be installed. Asked for platforms explicitly, failing is the answer.
      if (platformList !== undefined || error.name !== 'ProviderInstallError') throw error;
      process.stderr.write(`build-executables: WARNING: no executable for ${platform.name} (${error.message}).\n`);
      continue;
    }
    const what = built.reused ? 'up to date' : `built in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    const size = `${(built.size / 1024 / 1024).toFixed(1)} MiB`;
    process.stdout.write(`build-executables: ${platform.name} ${what}: ${built.path} (${size}, Bun ${built.bun}${built.bytecode ? ', bytecode' : ', no bytecode'})\n`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`build-executables: ${error.message}\n`);
  process.exit(1);
});
