#!/usr/bin/env node
/**
 * Builds the Terraform provider bundle: one self-contained, minified CommonJS file holding the
 * provider and everything it uses from npm (undici among them), which Bun compiles into the
 * executables (scripts/build-executables.mjs) and which the Node.js launcher is made of.
 *
 * Usage:
 *   node scripts/build-provider.mjs [ENTRY] [--out FILE] [--no-minify]
 *       bundle ENTRY (default src/provider/main.ts) into FILE
 *       (default dist/provider/terraform-provider-orgadmin.js); --no-minify for profiling
 *   node scripts/build-provider.mjs --descriptor           only regenerate src/tfplugin/protocol/proto/descriptor.json
 *
 * The protobuf descriptor is regenerated from the .proto files before every bundle, so the
 * bundle never carries a stale one.
 */
import { chmodSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(root, 'src/tfplugin/protocol/proto');
const PROTO_FILES = ['tfplugin6.proto', 'go_plugin.proto', 'health.proto'];

/** Compiles the .proto files to protobufjs JSON (field names kept as written). */
export function compileDescriptor() {
  const protobuf = require('protobufjs');
  const protoRoot = new protobuf.Root();
  protoRoot.loadSync(PROTO_FILES.map((file) => join(protoDir, file)), { keepCase: true });
  return protoRoot.toJSON();
}

function writeDescriptor() {
  const file = join(protoDir, 'descriptor.json');
  const text = `${JSON.stringify(compileDescriptor())}\n`;
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // first generation
  }
  if (current !== text) writeFileSync(file, text);
  return file;
}

/**
 * Runs before any bundled module: stdout belongs to the go-plugin handshake line alone, so a
 * stray console.log anywhere (even at import time, before serveProvider runs) must go to stderr.
 * Redefining the getter keeps the stream lazy; the global console binds to it on first use.
 */
const STDOUT_GUARD =
  "Object.defineProperty(process,'stdout',{configurable:true,enumerable:true,get:()=>process.stderr});";

/**
 * What undici is bundled from in the provider: scripts/provider-undici.cjs, the part of undici the
 * SDK and the provider use, instead of undici's index, which evaluates much the provider never
 * runs (see that file).
 */
const UNDICI_ENTRY = join(root, 'scripts/provider-undici.cjs');

/** An esbuild plugin that resolves `undici`, imported by the project's sources, to {@link UNDICI_ENTRY}. */
const undiciSelection = {
  name: 'undici-selection',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => (args.importer.includes('/node_modules/') ? undefined : { path: UNDICI_ENTRY }));
  },
};

async function bundle(entry, outfile, minify = true) {
  const esbuild = require('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify,
    legalComments: 'none',
    banner: { js: `#!/usr/bin/env node\n${STDOUT_GUARD}` },
    logLevel: 'warning',
    plugins: [undiciSelection],
  });
  chmodSync(outfile, 0o755);
}

async function main(argv) {
  if (argv.includes('--help')) {
    process.stdout.write(
      'usage: node scripts/build-provider.mjs [ENTRY] [--out FILE] [--no-minify]\n       node scripts/build-provider.mjs --descriptor\n',
    );
    return;
  }
  const descriptorFile = writeDescriptor();
  if (argv.includes('--descriptor')) {
    process.stdout.write(`wrote ${descriptorFile}\n`);
    return;
  }
  let entry = join(root, 'src/provider/main.ts');
  let outfile = join(root, 'dist/provider/terraform-provider-orgadmin.js');
  let minify = true;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') outfile = resolve(argv[++i] ?? '');
    else if (argv[i] === '--no-minify') minify = false;
    else if (!argv[i].startsWith('--')) entry = resolve(argv[i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  await bundle(entry, outfile, minify);
  process.stdout.write(`bundled ${entry} -> ${outfile}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`build-provider: ${error.message}\n`);
    process.exit(1);
  });
}
