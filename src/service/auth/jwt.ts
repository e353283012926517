/**
 * JWT issue and verify, RS256 only, with node:crypto. Verification refuses every other `alg`
 * (including `none`), checks the signature against the realm's key, the issuer's realm, the
 * audience, and the times `exp`, `nbf` and `iat` (the last two with {@link CLOCK_SKEW_SECONDS}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519 (JWT) and https://www.rfc-editor.org/rfc/rfc7515 (JWS)
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/** A realm's signing key pair in PEM form plus its key id. */
export interface SigningKey {
  privateKeyPem: string;
  publicKeyPem: string;
  keyId: string;
}

/** The public half of a realm key as a JWK (RFC 7517). */
export interface PublicJwk {
  kty: 'RSA';
  use: 'sig';
  alg: 'RS256';
  kid: string;
  n: string;
  e: string;
}

/** Claims the service puts in (and expects of) its tokens. */
export interface TokenClaims {
  iss: string;
  sub: string;
  azp: string;
  exp: number;
  iat: number;
  jti: string;
  /** `Bearer` for access tokens, `portal` for admin portal links; never interchangeable. */
  typ: string;
  [claim: string]: unknown;
}

/**
 * How far `nbf` and `iat` may lie in the future, in seconds. Tokens are checked by the service
 * that issued them, or by another instance on the same database whose clock may differ a little;
 * 30 s absorbs ordinary NTP drift while a token made for an hour from now is still refused.
 */
export const CLOCK_SKEW_SECONDS = 30;

/** Longest access token lifetime a realm may set (one day); ID tokens live as long as their access tokens. */
export const MAX_TOKEN_LIFETIME_SECONDS = 86400;

/**
 * The audience (`aud`) of a realm's access tokens: the realm's organization API. A URN rather than
 * a URL because tokens stay valid whichever host name a client reaches the service by.
 */
export function realmAudience(realm: string): string {
  return `urn:orgadmin:realm:${realm}`;
}

/** Why a token was refused (for logs and tests; clients only see `invalid_token`). */
export class TokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TokenError';
  }
}

/** A fresh 2048-bit RSA key for a new realm. kid = RFC 7638 thumbprint of the public key. */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem,
    keyId: thumbprint(publicKeyPem),
  };
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url). */
function thumbprint(publicKeyPem: string): string {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' }) as { n: string; e: string };
  // Members in lexicographic order, no whitespace, as RFC 7638 §3.2 requires.
  const canonical = JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The JWK of a realm's public key (published at the JWKS endpoint). */
export function publicJwk(key: Pick<SigningKey, 'publicKeyPem' | 'keyId'>): PublicJwk {
  const jwk = keyObjectOf(publicKeys, key.publicKeyPem, createPublicKey).export({ format: 'jwk' }) as { n: string; e: string };
  return { kty: 'RSA', use: 'sig', alg: 'RS256', kid: key.keyId, n: jwk.n, e: jwk.e };
}

/**
 * Most key objects kept by {@link keyObjectOf}. A service holds one key pair per realm; the bound
 * only keeps a process that sees very many realms (or tests generating keys) from growing forever.
 */
const MAX_CACHED_KEYS = 1000;
const publicKeys = new Map<string, KeyObject>();
const privateKeys = new Map<string, KeyObject>();

/**
 * The parsed key for a PEM text, parsed once. Why: handing a PEM string to `crypto.sign`/`verify`
 * parses it on every call (most of a request's time: bench/README.md, bench:service); a KeyObject makes
 * the signature check itself the only cost. Keyed by the PEM text, so a realm whose key changed
 * (deleted and created again) gets its new key, never the old one.
 */
function keyObjectOf(cache: Map<string, KeyObject>, pem: string, parse: (pem: string) => KeyObject): KeyObject {
  let key = cache.get(pem);
  if (key === undefined) {
    key = parse(pem);
    // Oldest first out: Map keeps insertion order.
    if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
    cache.set(pem, key);
  }
  return key;
}

const encodeJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs claims as a compact JWS with RS256. `iat`, `jti` are filled in when absent. */
export function signJwt(
  key: SigningKey,
  claims: Omit<TokenClaims, 'iat' | 'jti'> & { iat?: number; jti?: string },
): string {
  const header = { alg: 'RS256', typ: 'JWT', kid: key.keyId };
  const body = { iat: Math.floor(Date.now() / 1000), jti: randomUUID(), ...claims };
  const input = `${encodeJson(header)}.${encodeJson(body)}`;
  const signature = sign('sha256', Buffer.from(input), keyObjectOf(privateKeys, key.privateKeyPem, createPrivateKey)).toString('base64url');
  return `${input}.${signature}`;
}

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new TokenError(`malformed ${what}`);
}

/** The realm named by an issuer URL (`…/realms/{realm}`), or undefined. */
export function realmOfIssuer(iss: unknown): string | undefined {
  if (typeof iss !== 'string') return undefined;
  const match = /\/realms\/([^/]+)$/.exec(iss);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * Checks a compact JWS's form, algorithm, key id and signature against `key`, and returns its
 * claims without judging them. Every token must pass this once; {@link checkClaims} must then run
 * on every use (the verified-token cache keeps only this step's result).
 */
export function verifySignature(token: string, key: Pick<SigningKey, 'publicKeyPem' | 'keyId'>): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) throw new TokenError('not a compact JWS');
  const header = decodeJson(parts[0], 'header');
  if (header.alg !== 'RS256') throw new TokenError(`algorithm ${String(header.alg)} is not accepted`);
  if (header.kid !== undefined && header.kid !== key.keyId) throw new TokenError('unknown key id');
  const signature = Buffer.from(parts[2], 'base64url');
  const publicKey = keyObjectOf(publicKeys, key.publicKeyPem, createPublicKey);
  const ok = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, signature);
  if (!ok) throw new TokenError('bad signature');
  return decodeJson(parts[1], 'claims');
}

/** What a token must be to be accepted: its realm, type, audience (when given) and the time now. */
export interface ExpectedClaims {
  realm: string;
  typ: string;
  /** Required `aud` value (string or one of an array); unchecked when undefined (portal links). */
  audience?: string;
  /** Now, in seconds since the epoch; default the system clock. */
  nowSeconds?: number;
}

/** True when a numeric date claim is present and a finite number (RFC 7519 NumericDate). */
const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Judges the claims of a token whose signature is verified: the issuer's realm, the token type,
 * the audience, `exp` against now, `nbf` and `iat` against now plus {@link CLOCK_SKEW_SECONDS},
 * and that subject, client and token id are present. Cheap; runs on every request.
 */
export function checkClaims(claims: Record<string, unknown>, expected: ExpectedClaims): TokenClaims {
  if (realmOfIssuer(claims.iss) !== expected.realm) throw new TokenError('issued by another realm');
  if (claims.typ !== expected.typ) throw new TokenError(`token type ${String(claims.typ)} is not accepted here`);
  if (expected.audience !== undefined) {
    const aud = claims.aud;
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(expected.audience)) throw new TokenError('not meant for this audience');
  }
  const now = expected.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!isNumericDate(claims.exp) || claims.exp <= now) throw new TokenError('expired');
  if (claims.nbf !== undefined && (!isNumericDate(claims.nbf) || claims.nbf > now + CLOCK_SKEW_SECONDS)) {
    throw new TokenError('not valid yet');
  }
  if (!isNumericDate(claims.iat) || claims.iat > now + CLOCK_SKEW_SECONDS) throw new TokenError('issued in the future');
  if (typeof claims.sub !== 'string' || typeof claims.azp !== 'string') throw new TokenError('missing subject');
  if (typeof claims.jti !== 'string' || claims.jti === '') throw new TokenError('missing token id');
  return claims as TokenClaims;
}

/**
 * Verifies a compact JWS against the realm's key and returns its claims.
 *
 * The issuer check is by realm (the last path segment of `iss`), not by host, so a token fetched
 * through `127.0.0.1` stays valid when the same client calls `acme.localhost` — the per-realm key
 * is what binds a token to its realm.
 */
export function verifyJwt(token: string, key: Pick<SigningKey, 'publicKeyPem' | 'keyId'>, expected: ExpectedClaims): TokenClaims {
  return checkClaims(verifySignature(token, key), expected);
}
