#!/usr/bin/env node
/**
 * Builds the Terraform provider executable: one self-contained, minified CommonJS file that
 * Terraform can start directly (`#!/usr/bin/env node`), so start-up reads one file and
 * `terraform init`'s package hash covers all the code.
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
 * Packages whose loading is deferred until the provider first uses them. Terraform starts the
 * provider three times per command and two of those processes only ask for the schema or
 * validate, so a dependency that only RPCs after ConfigureProvider need should not be paid for at
 * start-up. Measured here: loading undici (the SDK's HTTP client) costs ~65 ms, more than
 * everything else from spawn to handshake together.
 */
const LAZY_MODULES = ['undici'];

/**
 * What a lazy package is bundled from, when not its own index: undici's index evaluates much the
 * provider never runs (see scripts/provider-undici.cjs).
 */
const LAZY_ENTRIES = { undici: join(root, 'scripts/provider-undici.cjs') };

/**
 * An esbuild plugin that replaces `import { X } from 'pkg'` in the project's sources by a shim
 * whose exports are proxies loading `pkg` on first use (call, `new`, property read, `extends`,
 * `instanceof`). The package is bundled separately and embedded, base64-encoded, in a comment
 * inside a holder function appended to the bundle (`sources` collects them for the footer): V8
 * skips a comment almost for free, while pre-parsing half a megabyte of functions (or scanning a
 * string literal of them) costs milliseconds at every start. The holders follow a marker line: the
 * launcher and the executable compile the bundle without them and hand a source over when the
 * package is first needed (LAZY_SOURCES_MARKER in src/distribution/bundle-loader.ts); run
 * as a plain script, the bundle reads the comment through `Function#toString`. The executable stays
 * one self-contained file. A package with an entry in LAZY_ENTRIES is bundled from that file
 * instead of its own index.
 */
function lazyModulesPlugin(esbuild, modules, sources, contract) {
  return {
    name: 'lazy-modules',
    setup(build) {
      const filter = new RegExp(`^(${modules.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
      build.onResolve({ filter }, (args) => {
        if (args.importer.includes('/node_modules/')) return undefined;
        return { path: args.path, namespace: 'lazy-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-module' }, async (args) => {
        const entry = LAZY_ENTRIES[args.path] ?? args.path;
        const names = Object.keys(require(entry)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
        const packaged = await esbuild.build({
          stdin: { contents: `module.exports = require(${JSON.stringify(entry)});`, resolveDir: root, loader: 'js' },
          bundle: true,
          platform: 'node',
          target: 'node20',
          format: 'cjs',
          minify: true,
          legalComments: 'none',
          write: false,
          logLevel: 'warning',
        });
        const holder = `__lazySource_${args.path.replace(/[^A-Za-z0-9_$]/g, '_')}`;
        sources.set(holder, Buffer.from(packaged.outputFiles[0].text, 'utf8').toString('base64'));
        const contents = [
          'let real;',
          'function load() {',
          '  if (!real) {',
          // The loaders hand the source over (they compile the bundle without its footer); run as a
          // plain script, the bundle reads its holder.
          `    const text = typeof ${contract.LAZY_SOURCE_PARAMETER} === 'function' ? null : ${holder}.toString();`,
          `    const base64 = text === null ? ${contract.LAZY_SOURCE_PARAMETER}(${JSON.stringify(holder)}) : text.slice(text.indexOf('/*') + 2, text.lastIndexOf('*/'));`,
          "    const code = Buffer.from(base64, 'base64').toString('utf8');",
          '    const module = { exports: {} };',
          `    new Function('module', 'exports', 'require', '__filename', '__dirname', code)(module, module.exports, require, __filename + ${JSON.stringify(`#${args.path}`)}, __dirname);`,
          '    real = module.exports;',
          '  }',
          '  return real;',
          '}',
          'function lazy(name) {',
          '  const resolve = () => load()[name];',
          '  const proxy = new Proxy(function () {}, {',
          '    get: (_t, key) => resolve()[key],',
          '    set: (_t, key, value) => { resolve()[key] = value; return true; },',
          '    has: (_t, key) => key in resolve(),',
          '    apply: (_t, self, args) => Reflect.apply(resolve(), self, args),',
          '    construct: (_t, args, newTarget) => Reflect.construct(resolve(), args, newTarget === proxy ? resolve() : newTarget),',
          '    getPrototypeOf: () => Object.getPrototypeOf(resolve()),',
          '  });',
          '  return proxy;',
          '}',
          ...names.map((name) => `export const ${name} = lazy(${JSON.stringify(name)});`),
          'export default new Proxy({}, { get: (_t, key) => load()[key] });',
        ].join('\n');
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
}

/**
 * LAZY_SOURCES_MARKER and LAZY_SOURCE_PARAMETER of src/distribution/bundle-loader.ts, the
 * loaders' side of the footer's contract, read from there (compiled by esbuild; it imports nothing).
 */
function loadLazySourcesContract(esbuild) {
  const file = join(root, 'src/distribution/bundle-loader.ts');
  const { code } = esbuild.transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs' });
  const module = { exports: {} };
  new Function('module', 'exports', code)(module, module.exports);
  return module.exports;
}

async function bundle(entry, outfile, minify = true) {
  const esbuild = require('esbuild');
  mkdirSync(dirname(outfile), { recursive: true });
  const lazySources = new Map();
  const contract = loadLazySourcesContract(esbuild);
  const result = await esbuild.build({
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
    write: false,
    plugins: [lazyModulesPlugin(esbuild, LAZY_MODULES, lazySources, contract)],
  });
  // Holder functions go after the minified code (a footer is never minified, so the comments
  // survive); function declarations are hoisted, so the shims can reach them.
  // The footer starts with the marker the loaders cut the bundle at (LAZY_SOURCES_MARKER).
  const holders = [...lazySources].map(([holder, base64]) => `function ${holder}(){/*${base64}*/}`).join('\n');
  const code = result.outputFiles[0].text.replace(/\n$/, '');
  writeFileSync(outfile, lazySources.size > 0 ? `${code}${contract.LAZY_SOURCES_MARKER}${holders}\n` : `${code}\n`);
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
