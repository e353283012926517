#!/usr/bin/env node
/**
 * Writes `dist/cdktn/`, the constructs for CDK Terrain (`orgadmin/cdktn`), from the same compiled
 * constructs as `dist/constructs/` (CDK for Terraform, `orgadmin/constructs`). Run by
 * `npm run build` after `tsc`, which has already compiled the cdktn bindings `src/cdktn/gen` into
 * `dist/cdktn/gen`.
 *
 * The hand-written constructs import their toolkit only through `toolkit` (see
 * src/constructs/toolkit.ts) and their bindings only through `./gen`. So `dist/cdktn/` is every
 * compiled construct file copied unchanged, beside the cdktn bindings, with one exception: the
 * toolkit module, whose module names are rewritten from `cdktf` to `cdktn`. The export list stays
 * written once, in toolkit.ts. The build fails when any other copied file names `cdktf` as a
 * module, since that would put cdktf classes into a cdktn stack.
 *
 * Usage: node scripts/build-cdktn.mjs [--dist DIR]   (default: dist/ of this repository)
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The toolkit module's compiled files (its source map is copied unchanged, it only maps lines). */
const TOOLKIT_FILES = new Set(['toolkit.js', 'toolkit.d.ts']);

/** A module specifier naming the cdktf package or one of its files, in `require("…")`, `from '…'` or `import("…")`. */
const CDKTF_SPECIFIER = /(["'])cdktf(\/[^"']*)?\1/g;

/**
 * `text` with every cdktf module specifier pointed at cdktn (`"cdktf"` → `"cdktn"`,
 * `'cdktf/lib/x'` → `'cdktn/lib/x'`); prose is left alone.
 */
export function retargetToolkit(text) {
  return text.replace(CDKTF_SPECIFIER, (_match, quote, subpath = '') => `${quote}cdktn${subpath}${quote}`);
}

/** Module specifiers naming cdktf in `text`, for the check that no copied file uses cdktf. */
export function cdktfSpecifiers(text) {
  return [...text.matchAll(CDKTF_SPECIFIER)].map((match) => match[0]);
}

/**
 * Builds `<distDir>/cdktn` from `<distDir>/constructs`. Returns the names of the files written,
 * sorted. Throws when the constructs are not compiled, the cdktn bindings are missing, or a copied
 * file other than the toolkit module names cdktf.
 */
export function buildCdktn(distDir = join(root, 'dist')) {
  const from = join(distDir, 'constructs');
  const to = join(distDir, 'cdktn');
  if (!existsSync(join(from, 'toolkit.js'))) throw new Error(`${from}/toolkit.js is missing: run tsc -p tsconfig.build.json first`);
  if (!existsSync(join(to, 'gen', 'index.js'))) throw new Error(`${to}/gen is missing: the cdktn bindings (src/cdktn/gen) were not compiled`);
  mkdirSync(to, { recursive: true });
  // Files of an earlier build whose source is gone must not linger; gen/ is tsc's.
  for (const entry of readdirSync(to)) if (entry !== 'gen') rmSync(join(to, entry), { recursive: true, force: true });

  const written = [];
  const problems = [];
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (!entry.isFile()) continue; // gen/: the cdktf bindings, replaced by the cdktn ones
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (TOOLKIT_FILES.has(entry.name)) {
      writeFileSync(target, retargetToolkit(readFileSync(source, 'utf8')));
    } else {
      if (/\.(js|d\.ts)$/.test(entry.name)) {
        const found = cdktfSpecifiers(readFileSync(source, 'utf8'));
        if (found.length > 0) problems.push(`${entry.name} imports ${found.join(', ')}: import it through ./toolkit instead`);
      }
      copyFileSync(source, target);
    }
    written.push(entry.name);
  }
  if (problems.length > 0) throw new Error(`dist/constructs cannot be shared with cdktn:\n  ${problems.join('\n  ')}`);
  return written.sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const args = process.argv.slice(2);
    if (args.length > 0 && !(args.length === 2 && args[0] === '--dist')) throw new Error('usage: build-cdktn.mjs [--dist DIR]');
    const distDir = args.length === 2 ? resolve(args[1]) : join(root, 'dist');
    const files = buildCdktn(distDir);
    process.stdout.write(`build-cdktn: wrote ${files.length} files to ${join(distDir, 'cdktn')}\n`);
  } catch (error) {
    process.stderr.write(`build-cdktn: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
