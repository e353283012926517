/**
 * Makes the V8 code cache of the provider bundle: the compiled form of the functions the provider
 * runs from start to the go-plugin handshake, so that each start (three per Terraform command)
 * skips parsing and compiling them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCertificate } from '../tfplugin/protocol/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../tfplugin/protocol/plugin-server';
import { bundleCode, bundleScriptSource, LAZY_SOURCE_READER, PROVIDER_BUNDLE_FILE } from './bundle-loader';

/** How long making the code cache may take before going on without one. */
const CODE_CACHE_TIMEOUT_MS = 30_000;

/**
 * Node.js code run in a child process to make the code cache: it compiles the bundle exactly as
 * the loaders do ({@link bundleScriptSource}), runs it as Terraform would start it until the
 * handshake line (so that the functions of the start-up path are compiled and land in the cache),
 * then writes the cache and exits. A bundle that ends without a handshake gets the cache of what it
 * ran. Arguments: the script's name (recorded in the cache, so it names no directory of this
 * machine), script source path, cache path, and the path of the bundle's footer of lazy sources
 * (handed to the bundle as the loaders hand it).
 */
export const CODE_CACHE_GENERATOR = [
  "'use strict';",
  "const fs = require('fs');",
  "const { Script } = require('vm');",
  'const [file, sourceFile, out, footerFile] = process.argv.slice(1);',
  "const script = new Script(fs.readFileSync(sourceFile, 'utf8'), { filename: file });",
  'let written = false;',
  'const save = () => {',
  '  if (written) return;',
  '  written = true;',
  '  fs.writeFileSync(out, script.createCachedData());',
  '};',
  "process.once('exit', save);",
  'const writeSync = fs.writeSync;',
  'fs.writeSync = function (fd, ...rest) {',
  '  if (fd !== 1) return writeSync.call(this, fd, ...rest);',
  '  save();',
  '  process.exit(0);',
  '};',
  'const bundleModule = { exports: {} };',
  `const lazySource = ${LAZY_SOURCE_READER}(() => fs.readFileSync(footerFile, 'utf8'));`,
  "script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, file, require('path').dirname(file), lazySource);",
].join('\n');

/**
 * Makes the V8 code cache of `bundle` with this Node.js started with `nodeFlags`, or returns
 * undefined when that fails (the provider then runs without one; nothing else depends on it).
 *
 * A cache fits only the V8 version (and V8 flags) that made it, so it can be made only for the
 * platform this runs on. Two caches of the same bundle are not byte-identical (V8 seeds its string
 * hashes at random per process), which is why a build with a code cache is not reproducible.
 */
export async function makeCodeCache(bundle: Buffer, nodeFlags: readonly string[] = []): Promise<Buffer | undefined> {
  const work = await mkdtemp(join(tmpdir(), 'orgadmin-code-cache-'));
  try {
    const sourceFile = join(work, 'script.js');
    const out = join(work, 'cache');
    const bundleText = bundle.toString('utf8');
    await writeFile(sourceFile, bundleScriptSource(bundleText));
    const footerFile = join(work, 'lazy-sources.txt');
    await writeFile(footerFile, bundleText.slice(bundleCode(bundleText).length));
    const sockets = join(work, 'tmp');
    await mkdir(sockets);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      TMPDIR: sockets,
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '6',
      // TLS on, as under Terraform, so the certificate code is in the cache too.
      PLUGIN_CLIENT_CERT: generateCertificate().certPem,
      TF_LOG: 'off',
    };
    // A bundle that fails after starting still leaves the cache of what it ran (written on exit),
    // and V8 checks any cache before using it; only a killed generator leaves none.
    await new Promise<void>((resolvePromise) => {
      execFile(
        process.execPath,
        // The bundle's own file name, with no directory: V8 keeps it in the cache.
        [...nodeFlags, '-e', CODE_CACHE_GENERATOR, PROVIDER_BUNDLE_FILE, sourceFile, out, footerFile],
        { env, cwd: work, timeout: CODE_CACHE_TIMEOUT_MS, killSignal: 'SIGKILL' },
        () => resolvePromise(),
      );
    });
    const cache = await readFile(out).catch(() => undefined);
    return cache && cache.length > 0 ? cache : undefined;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
