/**
 * The plugin's TLS server certificate, made at start-up.
 *
 * go-plugin's client trusts exactly the certificate the plugin prints in its handshake line and
 * connects with server name `localhost`. Node can sign but cannot build X.509 certificates, so
 * this file encodes the few DER structures a certificate needs and signs the TBSCertificate with
 * node:crypto. The template follows go-plugin's own (ECDSA P-256, CA, key usages
 * digitalSignature/keyEncipherment/keyAgreement/certSign, extended key usages server and client
 * auth, SAN `DNS:localhost`), which Terraform is known to accept.
 *
 * @see RFC 5280 (X.509 profile), X.690 (DER)
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** A freshly generated certificate with its private key. */
export interface GeneratedCertificate {
  /** The certificate, DER-encoded. */
  readonly der: Buffer;
  /** The certificate, PEM-encoded (for node:tls). */
  readonly certPem: string;
  /** The private key, PKCS#8 PEM (for node:tls). */
  readonly keyPem: string;
  /** The private key object. */
  readonly privateKey: KeyObject;
}

/** Options of {@link generateCertificate}; the defaults make go-plugin's server certificate. */
export interface CertificateOptions {
  /** Subject and issuer common name. @default 'localhost' */
  readonly commonName?: string;
  /** Subject and issuer organization. @default 'HashiCorp' (go-plugin's choice) */
  readonly organization?: string;
  /** DNS names of the subject alternative name extension. @default ['localhost'] */
  readonly dnsNames?: readonly string[];
  /** Start of validity. @default 30 seconds ago (clock skew between the two processes) */
  readonly notBefore?: Date;
  /** End of validity. @default 30 years after now (go-plugin's 262980 hours) */
  readonly notAfter?: Date;
}

// --- DER primitives ---------------------------------------------------------------------------

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: tag byte, DER length, contents. */
function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const octetString = (contents: Buffer): Buffer => tlv(0x04, contents);
const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
const booleanTrue = (): Buffer => tlv(0x01, Buffer.from([0xff]));
/** Context-specific constructed tag `[n]` (EXPLICIT). */
const explicit = (n: number, ...items: Buffer[]): Buffer => tlv(0xa0 | n, ...items);

/** A BIT STRING of whole bytes with `unusedBits` unused trailing bits. */
function bitString(contents: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.from([unusedBits]), contents);
}

/** A non-negative INTEGER from big-endian magnitude bytes. */
function unsignedInteger(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  // A set high bit would make the number negative: prefix a zero byte.
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function objectIdentifier(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const group: number[] = [part & 0x7f];
    for (let rest = Math.floor(part / 128); rest > 0; rest = Math.floor(rest / 128)) group.unshift((rest & 0x7f) | 0x80);
    bytes.push(...group);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19);
  const year = date.getUTCFullYear();
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'));
  return tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

// --- Certificate ------------------------------------------------------------------------------

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

function name(organization: string, commonName: string): Buffer {
  // Go writes organization before common name; the order only matters for display.
  return sequence(
    set(sequence(objectIdentifier(OID.organization), utf8String(organization))),
    set(sequence(objectIdentifier(OID.commonName), utf8String(commonName))),
  );
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? sequence(objectIdentifier(oid), booleanTrue(), octetString(value))
    : sequence(objectIdentifier(oid), octetString(value));
}

/**
 * Generates an ECDSA P-256 key and a self-signed certificate for it.
 *
 * @example
 * const { der, certPem, keyPem } = generateCertificate();
 * new crypto.X509Certificate(der).subjectAltName; // 'DNS:localhost'
 */
export function generateCertificate(options: CertificateOptions = {}): GeneratedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const now = Date.now();
  const notBefore = options.notBefore ?? new Date(now - 30_000);
  const notAfter = options.notAfter ?? new Date(now + 262_980 * 3600_000);
  const subject = name(options.organization ?? 'HashiCorp', options.commonName ?? 'localhost');
  const signatureAlgorithm = sequence(objectIdentifier(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // positive, and at most 16 bytes once encoded
  if (serial[0] === 0) serial[0] = 1;

  const dnsNames = options.dnsNames ?? ['localhost'];
  const extensions = sequence(
    // digitalSignature (bit 0), keyEncipherment (2), keyAgreement (4), keyCertSign (5):
    // 1010 1100 = 0xac, the two trailing zero bits unused.
    extension(OID.keyUsage, true, bitString(Buffer.from([0xac]), 2)),
    extension(OID.extKeyUsage, false, sequence(objectIdentifier(OID.clientAuth), objectIdentifier(OID.serverAuth))),
    extension(OID.basicConstraints, true, sequence(booleanTrue())),
    // No subject key identifier: Go adds one to CA certificates, but nothing here needs it and
    // hashing costs start-up time.
    // dNSName is [2] IMPLICIT IA5String.
    extension(OID.subjectAltName, false, sequence(...dnsNames.map((dns) => tlv(0x82, Buffer.from(dns, 'ascii'))))),
  );

  const tbs = sequence(
    explicit(0, tlv(0x02, Buffer.from([2]))), // version v3
    unsignedInteger(serial),
    signatureAlgorithm,
    subject, // issuer: self-signed
    sequence(time(notBefore), time(notAfter)),
    subject,
    spki,
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value
  const der = sequence(tbs, signatureAlgorithm, bitString(signature));
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { der, certPem: toPem(der, 'CERTIFICATE'), keyPem, privateKey };
}

/** PEM armour for DER bytes. */
export function toPem(der: Buffer, label: string): string {
  const base64 = der.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += 64) lines.push(base64.slice(i, i + 64));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
