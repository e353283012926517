#!/usr/bin/env node
/**
 * Builds the Terraform provider executable: one self-contained, minified CommonJS file that
 * Terraform can start directly (`#!/usr/bin/env node`), so start-up reads one file and
 * `terraform init`'s package hash covers all the code.
 *
 * Usage:
 *   node scripts/build-provider.mjs [ENTRY] [--out FILE]   bundle ENTRY (default src/provider/main.ts)
 *                                                          into FILE (default dist/provider/terraform-provider-orgadmin.js)
 *   node scripts/build-provider.mjs --descriptor           only regenerate src/provider/protocol/proto/descriptor.json
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
const protoDir = join(root, 'src/provider/protocol/proto');
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

async function bundle(entry, outfile) {
  const esbuild = require('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
}

async function main(argv) {
  if (argv.includes('--help')) {
    process.stdout.write(
      'usage: node scripts/build-provider.mjs [ENTRY] [--out FILE]\n       node scripts/build-provider.mjs --descriptor\n',
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
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') outfile = resolve(argv[++i] ?? '');
    else if (!argv[i].startsWith('--')) entry = resolve(argv[i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  await bundle(entry, outfile);
  process.stdout.write(`bundled ${entry} -> ${outfile}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`build-provider: ${error.message}\n`);
    process.exit(1);
  });
}
