import { generateClientId, generateClientSecret, hashSecret, verifySecret } from '../../../src/service/auth/secrets';

describe('secret hashing', () => {
  it('verifies the right secret and refuses a wrong one', async () => {
    const hash = await hashSecret('s3cret');
    expect(hash.startsWith('scrypt$')).toBe(true);
    expect(hash).not.toContain('s3cret');
    expect(await verifySecret('s3cret', hash)).toBe(true);
    expect(await verifySecret('s3cret!', hash)).toBe(false);
  });

  it('salts each hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('answers false for a malformed stored hash', async () => {
    expect(await verifySecret('x', 'plain-text')).toBe(false);
    expect(await verifySecret('x', 'scrypt$a$b$c$d$e')).toBe(false);
  });

  it('generates URL-safe client ids and long secrets', () => {
    expect(generateClientId()).toMatch(/^key-[a-z0-9]+$/);
    expect(generateClientSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateClientId()).not.toBe(generateClientId());
  });
});
