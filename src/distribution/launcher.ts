/**
 * The launcher: the provider bundle run by the machine's Node.js, for platforms without a
 * self-contained executable (orgadmin provider install --launcher). It is the bundle itself with a
 * `#!` line that starts Node.js, one file, so the lock-file hash Terraform records covers all of
 * the provider's code.
 */

/**
 * The Node.js flags the launcher starts the provider with. `--use-openssl-ca`: trust the system's CA
 * store (OpenSSL's default paths, e.g. /etc/ssl/certs, and `SSL_CERT_FILE` / `SSL_CERT_DIR` when
 * set) instead of the Mozilla roots compiled into Node.js, as Terraform's Go providers and the
 * executable do; `NODE_EXTRA_CA_CERTS` still adds its certificates.
 */
export const PROVIDER_NODE_FLAGS: readonly string[] = ['--use-openssl-ca'];

/**
 * The launcher's `#!` line. `env -S` splits the rest of the line into arguments (a `#!` line passes
 * one argument only): GNU coreutils 8.30 and later, and the BSDs' and macOS's env (not BusyBox's).
 */
export const LAUNCHER_LINE = `#!/usr/bin/env -S node ${PROVIDER_NODE_FLAGS.join(' ')}`;

/** The launcher's text: `bundle` with its own `#!` line (if any) replaced by {@link LAUNCHER_LINE}. */
export function launcherSource(bundle: Buffer): Buffer {
  const text = bundle.toString('utf8');
  const body = text.startsWith('#!') ? text.slice(text.indexOf('\n') + 1) : text;
  return Buffer.from(`${LAUNCHER_LINE}\n${body}`, 'utf8');
}
