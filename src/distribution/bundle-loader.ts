/**
 * The one piece of code that starts the provider bundle, in its two forms: the launcher script of
 * a filesystem-mirror installation (bundle and code cache are files next to it) and the main
 * script of the self-contained executable (bundle and code cache are assets of the executable).
 *
 * Both compile exactly {@link bundleScriptSource} of the bundle with the V8 code cache when one
 * fits, then run it as CommonJS would. Only where the two texts come from differs, so the wrapping
 * that a code cache depends on is written once, here.
 */

/**
 * File name of the bundle inside the installed package directory. It must not start with
 * `terraform-provider-orgadmin`: Terraform runs the first file of the package directory whose name
 * has that prefix, and `terraform-provider-orgadmin.js` sorts before the launcher.
 */
export const PROVIDER_BUNDLE_FILE = 'orgadmin-provider-bundle.js';

/** Asset names inside the self-contained executable. */
export const EXECUTABLE_ASSETS = { bundle: 'orgadmin-provider-bundle.js', codeCache: 'orgadmin-provider-bundle.v8cache' } as const;

/**
 * File name of the bundle's V8 code cache inside the installed package directory, for the V8
 * version `v8Version` (default: this process's). A cache only fits the V8 that made it.
 */
export function providerCodeCacheFile(v8Version: string = process.versions.v8): string {
  return `orgadmin-provider-bundle.${v8Version}.v8cache`;
}

/**
 * The line that starts the bundle's footer (scripts/build-provider.mjs writes it): the sources of
 * the packages the provider loads on first use, each base64-encoded in a comment inside a holder
 * function `__lazySource_<name>(){/*…*\/}`. The footer is 60 % of the bundle (undici's source).
 *
 * The loaders compile the bundle without its footer and hand the bundle the sources on request
 * instead, through {@link LAZY_SOURCE_PARAMETER}: the footer is then neither decoded into a string
 * nor given to V8 at a start that never needs it (two of Terraform's three starts per command).
 * That shortens every start (bench/README.md, bench:provider, start-up decisions).
 * Run as a plain script (`node bundle.js`), the bundle reads its holders itself.
 */
export const LAZY_SOURCES_MARKER = '\n//# orgadmin-lazy-sources\n';

/**
 * The name of the wrapper's sixth parameter: a function from a holder's name to its base64 source.
 * The bundle's lazy-module shims use it when it is defined (`typeof`), their holder otherwise.
 */
export const LAZY_SOURCE_PARAMETER = '__orgadminLazySource';

/**
 * JavaScript source of a function that takes a thunk of the footer's text and returns the
 * {@link LAZY_SOURCE_PARAMETER} function over it (the footer is decoded at the first request).
 * Text, not code, because the launcher, the executable's main script and the code cache generator
 * all embed it: the rule is written once, here.
 */
export const LAZY_SOURCE_READER = [
  '(function (footer) {',
  '  let text;',
  '  return function (holder) {',
  '    text ??= footer();',
  "    const head = 'function ' + holder + '(){/*';",
  '    const start = text.indexOf(head);',
  "    if (start < 0) throw new Error('the provider bundle holds no source ' + holder);",
  "    return text.slice(start + head.length, text.indexOf('*/}', start));",
  '  };',
  '})',
].join('\n');

/** What the bundle is wrapped in, so that it runs with CommonJS's five module variables (and the lazy sources). */
const WRAPPER_HEAD = `(function (exports, require, module, __filename, __dirname, ${LAZY_SOURCE_PARAMETER}) {`;
const WRAPPER_TAIL = '\n})';

/** The bundle's text without its footer of lazy sources (see {@link LAZY_SOURCES_MARKER}). */
export function bundleCode(bundleText: string): string {
  const footer = bundleText.lastIndexOf(LAZY_SOURCES_MARKER);
  return footer < 0 ? bundleText : bundleText.slice(0, footer);
}

/**
 * The script compiled from the bundle's text: the bundle without its footer of lazy sources
 * ({@link bundleCode}), wrapped in a CommonJS-style function, its `#!` line turned into a comment
 * (V8 accepts `#!` only at the very start of a script). Line numbers stay those of the bundle file.
 * Whatever makes a code cache must compile exactly this text, or V8 rejects the cache.
 */
export function bundleScriptSource(bundleText: string): string {
  const code = bundleCode(bundleText);
  const body = code.startsWith('#!') ? `//${code.slice(2)}` : code;
  return `${WRAPPER_HEAD}${body}${WRAPPER_TAIL}`;
}

/**
 * The Node.js flags the launcher starts the provider with (on its `#!/usr/bin/env -S node ...`
 * line). The code cache is made under them too, so it records the start-up path the launcher
 * runs (V8 itself only checks its own flags, which these are not: a cache fits either way).
 *
 * `--use-openssl-ca`: trust the system's CA store (OpenSSL's default paths, e.g. /etc/ssl/certs,
 * and `SSL_CERT_FILE` / `SSL_CERT_DIR` when set) instead of the ~140 Mozilla roots compiled into
 * Node.js. Terraform's Go providers trust the same store (Go's system pool), so the provider's HTTPS
 * calls to the orgadmin service verify like theirs do. It is also cheaper: the root store is built
 * for every TLS context, the plugin server's included, and parsing the bundled roots was about half
 * of the start-up work before the handshake, three times per Terraform command. Where the system
 * store is a hashed directory (Debian, Ubuntu), certificates are only read on demand; a CA bundle
 * file (`SSL_CERT_FILE`, or a distribution whose default is one) is parsed whole, so the saving
 * there is smaller. `NODE_EXTRA_CA_CERTS` still adds its certificates on top (the provider adds
 * them, see {@link launcherLine}).
 *
 * The self-contained executable cannot take flags (Node.js 20's single executable applications
 * read none but `NODE_OPTIONS`): its provider's HTTPS client gets the system store through an
 * explicit CA list instead, read at the first HTTPS connection (./trust-store.ts).
 */
export const PROVIDER_NODE_FLAGS: readonly string[] = ['--use-openssl-ca'];

/**
 * Lines that set `file` (the script's file name), `dir` (its `__dirname`), `bytes` (the bundle, a
 * Buffer) and `cachedData` (the code cache or undefined), per form.
 */
const SOURCES = {
  launcher: [
    "const { readFileSync } = require('fs');",
    'const dir = __dirname;',
    `const file = dir + '/${PROVIDER_BUNDLE_FILE}';`,
    'const bytes = readFileSync(file);',
    'let cachedData;',
    'try {',
    `  cachedData = readFileSync(dir + '/orgadmin-provider-bundle.' + process.versions.v8 + '.v8cache');`,
    '} catch {',
    '  // No cache for this Node.js: compile from source.',
    '}',
  ],
  executable: [
    "const sea = require('node:sea');",
    // The executable is the file: stack traces and __filename name it, as for a Go provider.
    'const file = process.execPath;',
    "const dir = require('path').dirname(file);",
    // A view of the asset where it lies in the executable: only the part compiled is decoded.
    `const bytes = Buffer.from(sea.getRawAsset('${EXECUTABLE_ASSETS.bundle}'));`,
    'let cachedData;',
    'try {',
    `  cachedData = new Uint8Array(sea.getRawAsset('${EXECUTABLE_ASSETS.codeCache}'));`,
    '} catch {',
    '  // Built without a code cache (another platform than the build machine): compile from source.',
    '}',
  ],
} as const;

/**
 * The variable the launcher hands `NODE_EXTRA_CA_CERTS` over in, to the provider instead of to
 * Node.js (see {@link launcherLine}); empty when it was unset.
 */
export const LAUNCHER_EXTRA_CA_CERTS = 'ORGADMIN_EXTRA_CA_CERTS';

/**
 * The launcher's `#!` line. `env -S` splits the rest of the line into arguments (a `#!` line
 * passes one argument only) and expands `${NAME}`: GNU coreutils 8.30 and later, and the BSDs'
 * and macOS's env (not BusyBox's).
 *
 * It starts Node.js without `NODE_EXTRA_CA_CERTS` and passes its value on as
 * {@link LAUNCHER_EXTRA_CA_CERTS}. Node.js 20 reads and parses that file, and builds its root
 * store, while it starts, before any JavaScript runs, which lengthens each start noticeably
 * (bench/README.md, NODE_EXTRA_CA_CERTS), three starts per Terraform command, for a store that
 * two of those processes never use (they make no HTTPS call) and that the plugin server's TLS
 * never uses (it trusts Terraform's own certificate alone). The
 * provider's HTTPS client adds the file's certificates itself, at its first HTTPS connection
 * (./trust-store.ts), so what it trusts is unchanged.
 */
function launcherLine(): string {
  return `#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS ${LAUNCHER_EXTRA_CA_CERTS}=\${NODE_EXTRA_CA_CERTS} node ${PROVIDER_NODE_FLAGS.join(' ')}`;
}

/** Comment lines at the top of each form. */
const HEADERS = {
  launcher: [
    launcherLine(),
    '// Launcher of the orgadmin Terraform provider, written by `orgadmin provider install`.',
    '// It runs the bundle next to it, so the lock-file hash of this directory covers all the code;',
    '// the V8 code cache next to it (made at install time) saves compiling the bundle at every start.',
  ],
  executable: [
    '// Main script of the orgadmin Terraform provider executable (a Node.js single executable application).',
    '// It runs the bundle stored as an asset of the executable, with the V8 code cache stored beside it.',
  ],
} as const;

/**
 * The source of the bundle's starter: `launcher` (a `#!` script next to the bundle) or
 * `executable` (the main script of the single executable application).
 */
export function bundleLoaderSource(form: 'launcher' | 'executable'): string {
  return [
    ...HEADERS[form],
    "'use strict';",
    "const { Script } = require('vm');",
    ...SOURCES[form],
    // What bundleScriptSource() compiles: the bundle up to its footer of lazy sources, which is
    // decoded only if the provider asks for one (LAZY_SOURCES_MARKER).
    `const footerAt = bytes.lastIndexOf(${JSON.stringify(LAZY_SOURCES_MARKER)});`,
    "let text = bytes.toString('utf8', 0, footerAt < 0 ? bytes.length : footerAt);",
    `const lazySource = ${LAZY_SOURCE_READER}(() => (footerAt < 0 ? '' : bytes.toString('utf8', footerAt)));`,
    "if (text.startsWith('#!')) text = '//' + text.slice(2);",
    `const script = new Script(${JSON.stringify(WRAPPER_HEAD)} + text + ${JSON.stringify(WRAPPER_TAIL)}, { filename: file, cachedData });`,
    'const bundleModule = { exports: {} };',
    'script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, file, dir, lazySource);',
    '',
  ].join('\n');
}
