import { createHmac } from 'node:crypto';
import { generateSigningKey, publicJwk, realmOfIssuer, signJwt, TokenError, verifyJwt } from '../../../src/service/auth/jwt';

describe('JWT issue and verify (RS256)', () => {
  const key = generateSigningKey();
  const other = generateSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'http://x/realms/acme', sub: 'u1', azp: 'c1', typ: 'Bearer', exp: now + 60 };
  const expected = { realm: 'acme', typ: 'Bearer' };
  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('round-trips claims and fills iat and jti', () => {
    const verified = verifyJwt(signJwt(key, claims), key, expected);
    expect(verified).toMatchObject(claims);
    expect(typeof verified.iat).toBe('number');
    expect(typeof verified.jti).toBe('string');
  });

  it('refuses an expired token', () => {
    expect(() => verifyJwt(signJwt(key, { ...claims, exp: now - 1 }), key, expected)).toThrow(new TokenError('expired'));
  });

  it('refuses a token signed by another key', () => {
    const forged = signJwt({ ...other, keyId: key.keyId }, claims);
    expect(() => verifyJwt(forged, key, expected)).toThrow('bad signature');
  });

  it('refuses alg none', () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    expect(() => verifyJwt(token, key, expected)).toThrow(/algorithm none/);
  });

  it('refuses HS256 keyed with the public key (algorithm confusion)', () => {
    const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    const signature = createHmac('sha256', key.publicKeyPem).update(input).digest('base64url');
    expect(() => verifyJwt(`${input}.${signature}`, key, expected)).toThrow(/algorithm HS256/);
  });

  it('refuses a token of another realm', () => {
    const token = signJwt(key, { ...claims, iss: 'http://x/realms/other' });
    expect(() => verifyJwt(token, key, expected)).toThrow('issued by another realm');
  });

  it('refuses a token of another type', () => {
    expect(() => verifyJwt(signJwt(key, { ...claims, typ: 'portal' }), key, expected)).toThrow(/token type portal/);
  });

  it('refuses garbage', () => {
    expect(() => verifyJwt('not.a.jwt!', key, expected)).toThrow(TokenError);
    expect(() => verifyJwt('abc', key, expected)).toThrow(TokenError);
  });

  it('exposes the public key as a JWK whose kid matches', () => {
    const jwk = publicJwk(key);
    expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: key.keyId, e: 'AQAB' });
    expect(jwk.n.length).toBeGreaterThan(300);
  });

  it('reads the realm from an issuer URL', () => {
    expect(realmOfIssuer('https://acme.example.com/realms/acme')).toBe('acme');
    expect(realmOfIssuer('https://x/other')).toBeUndefined();
    expect(realmOfIssuer(42)).toBeUndefined();
  });
});
