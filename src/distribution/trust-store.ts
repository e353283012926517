/**
 * The certificate authorities the provider trusts for its HTTPS calls, where Node.js's default
 * store does not already hold them: in the self-contained executable, and in the launcher when
 * `NODE_EXTRA_CA_CERTS` is set.
 *
 * The launcher starts Node.js with `--use-openssl-ca`, so its provider trusts the system store
 * (`SSL_CERT_FILE`, `SSL_CERT_DIR`, /etc/ssl/certs), as Terraform's Go providers do. The executable
 * cannot take that flag (Node.js 20's single executable applications read none but `NODE_OPTIONS`),
 * and Node.js 20 has no `tls.setDefaultCACertificates`, so its default store holds only the Mozilla
 * roots compiled into Node.js plus `NODE_EXTRA_CA_CERTS`. The provider's HTTPS client therefore
 * gets, in the executable only, a connector whose TLS context trusts those *and* the system's CAs,
 * found the way Go finds them:
 *
 * - the file `SSL_CERT_FILE` when set, otherwise the first CA bundle of {@link SYSTEM_CA_BUNDLES}
 *   that exists;
 * - every certificate file in the directories of `SSL_CERT_DIR` (colon-separated) when set. The
 *   default directories are not read: on every distribution that has them they hold the same
 *   certificates as the bundle, and reading hundreds of files would cost more than the bundle.
 *
 * The launcher hands `NODE_EXTRA_CA_CERTS` over to the provider instead of to Node.js, which would
 * parse it at every start (see `launcherLine` in ./bundle-loader.ts); when it was set, the
 * launcher's HTTPS client gets a connector trusting the system's CAs, found as above, and that
 * file's ({@link launcherCaCertificates}): what `--use-openssl-ca` with `NODE_EXTRA_CA_CERTS`
 * trusted.
 *
 * Nothing is read before the first HTTPS connection: start-up and plain-HTTP use stay as they are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { buildConnector } from 'undici';
import { LAUNCHER_EXTRA_CA_CERTS } from './bundle-loader';

/**
 * System CA bundles, in the order Go's crypto/x509 tries them on Linux (the first one that exists
 * is used): Debian/Ubuntu/Gentoo, Fedora/RHEL 6, openSUSE, OpenELEC, CentOS/RHEL 7, Alpine (and macOS).
 */
export const SYSTEM_CA_BUNDLES: readonly string[] = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/** Marks a PEM text that holds at least one certificate. */
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/** Every certificate block of a PEM text. */
const PEM_BLOCKS = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The text of `path` when it is a readable file holding PEM certificates, else undefined. */
function readPemFile(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.includes(PEM_CERTIFICATE) ? text : undefined;
  } catch {
    // Missing or unreadable: like OpenSSL and Go, a trust source that is not there adds nothing.
    return undefined;
  }
}

/** The PEM texts of the certificate files in `dir` (hashed-directory links included). */
function readPemDirectory(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => readPemFile(join(dir, name)) ?? []);
}

/** Where the system CAs come from (tests point these elsewhere). */
export interface SystemTrustSources {
  /**
   * Variables read: `SSL_CERT_FILE`, `SSL_CERT_DIR`, `NODE_EXTRA_CA_CERTS` (the executable's) or
   * {@link LAUNCHER_EXTRA_CA_CERTS} (the launcher's). @default process.env
   */
  readonly env?: NodeJS.ProcessEnv;
  /** Bundles tried when `SSL_CERT_FILE` is unset. @default {@link SYSTEM_CA_BUNDLES} */
  readonly bundles?: readonly string[];
}

/**
 * The system's CA certificates as PEM texts (see the module comment for where they come from),
 * without Node's bundled roots.
 */
export function systemCaCertificates(sources: SystemTrustSources = {}): string[] {
  const env = sources.env ?? process.env;
  const certificates: string[] = [];
  const file = env.SSL_CERT_FILE ? readPemFile(env.SSL_CERT_FILE) : (sources.bundles ?? SYSTEM_CA_BUNDLES).map(readPemFile).find((text) => text !== undefined);
  if (file !== undefined) certificates.push(file);
  for (const dir of (env.SSL_CERT_DIR ?? '').split(':').filter((entry) => entry !== '')) {
    certificates.push(...readPemDirectory(dir));
  }
  return certificates;
}

/** A certificate's identity for de-duplication: its PEM block without whitespace. */
function certificateKey(pem: string): string {
  return pem.replace(/\s+/g, '');
}

/**
 * Everything the executable trusts, as PEM texts: {@link systemCaCertificates}, then
 * `NODE_EXTRA_CA_CERTS` (which an explicit CA list would otherwise leave out), then, as one text,
 * those of Node's bundled roots that none of these already holds. Texts that hold only
certificates seen before are left out.
 *
 * Parsing dominates the cost (per certificate, more when each is a separate text:
 * bench/README.md), and a system bundle mostly repeats Node's roots: skipping the repeats makes
 * the list about a third as costly as the plain concatenation. Each source stays its own text because OpenSSL stops
 * reading a text at its first damaged certificate: a damaged system file must not hide the rest.
 */
export function executableCaCertificates(sources: SystemTrustSources = {}): string[] {
  const known = new Set<string>();
  const texts = systemAndExtraCertificates(sources, 'NODE_EXTRA_CA_CERTS', known);
  const roots = rootCertificates.filter((pem) => !known.has(certificateKey(pem)));
  return roots.length === 0 ? texts : [...texts, roots.join('\n')];
}

/**
 * Everything the launcher's provider trusts when it was handed `NODE_EXTRA_CA_CERTS`, as PEM
 * texts: {@link systemCaCertificates} (what `--use-openssl-ca` makes Node.js trust), then the file
 * named by {@link LAUNCHER_EXTRA_CA_CERTS}, texts that repeat only certificates seen before left out.
 */
export function launcherCaCertificates(sources: SystemTrustSources = {}): string[] {
  return systemAndExtraCertificates(sources, LAUNCHER_EXTRA_CA_CERTS, new Set());
}

/**
 * {@link systemCaCertificates}, then the PEM file named by the variable `extraVariable`, each
 * source its own text; a text whose certificates are all in `known` already is left out (a
 * hashed-directory link to a certificate of the bundle), and `known` collects what is kept.
 */
function systemAndExtraCertificates(sources: SystemTrustSources, extraVariable: string, known: Set<string>): string[] {
  const env = sources.env ?? process.env;
  const extraFile = env[extraVariable];
  const extra = extraFile ? readPemFile(extraFile) : undefined;
  const texts: string[] = [];
  for (const text of [...systemCaCertificates(sources), ...(extra === undefined ? [] : [extra])]) {
    const keys = (text.match(PEM_BLOCKS) ?? []).map(certificateKey);
    if (keys.every((key) => known.has(key))) continue;
    for (const key of keys) known.add(key);
    texts.push(text);
  }
  return texts;
}

/**
 * An undici connector that opens plain connections as undici does by default and TLS connections
 * with one secure context trusting `loadCertificates()`, called at the first TLS connection only
 * (one context for all connections: building it parses every certificate).
 */
export function lazyTrustConnector(loadCertificates: () => string[]): buildConnector.connector {
  const plain = buildConnector({});
  let secure: buildConnector.connector | undefined;
  return (options, callback) => {
    if (options.protocol !== 'https:') return plain(options, callback);
    if (secure === undefined) {
      const secureContext: SecureContext = createSecureContext({ ca: loadCertificates() });
      secure = buildConnector({ secureContext });
    }
    return secure(options, callback);
  };
}

/** Whether this process is a single executable application (the self-contained provider). */
function isSingleExecutable(): boolean {
  try {
    // `node:sea` exists from Node.js 20.12; the launcher may run on an older Node.js 20.
    return (require('node:sea') as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}

/**
 * The `connect` option of the provider's HTTP agent: in the self-contained executable, a
 * {@link lazyTrustConnector} trusting {@link executableCaCertificates}; in a launcher that was
 * handed `NODE_EXTRA_CA_CERTS` ({@link LAUNCHER_EXTRA_CA_CERTS} set and not empty), one trusting
 * {@link launcherCaCertificates}; elsewhere (the launcher without it, tests) undefined, undici's
 * default, since `--use-openssl-ca` already made the system store the default there.
 */
export function providerTrustConnector(env: NodeJS.ProcessEnv = process.env): buildConnector.connector | undefined {
  if (isSingleExecutable()) return lazyTrustConnector(() => executableCaCertificates({ env }));
  if (env[LAUNCHER_EXTRA_CA_CERTS]) return lazyTrustConnector(() => launcherCaCertificates({ env }));
  return undefined;
}
