/**
 * Test helper: realms with pre-generated signing keys. Creating a realm generates a 2048-bit RSA
 * key pair (up to a second on a busy machine); tests whose subject is not the key itself create
 * their realms through {@link Admin} with keys from one pool generated once per test file.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Admin } from '../../src/service/admin';
import { generateSigningKey, type SigningKey } from '../../src/service/auth/jwt';
import { openStore } from '../../src/service/store/open-store';

const pool: SigningKey[] = [];

/**
 * A key source for {@link Admin}'s `signingKeys` option: hands out the pooled keys in turn,
 * generating the pool's keys on first use only. Distinct realms of one data file get distinct
 * keys as long as they are at most `size`.
 */
export function pooledSigningKeys(size = 4): () => SigningKey {
  let next = 0;
  return () => {
    const index = next++ % size;
    pool[index] ??= generateSigningKey();
    return pool[index]!;
  };
}

/** Creates realms in the data file `dataFile` as `orgadmin realms create NAME` does, with pooled keys. */
export async function createRealms(dataFile: string, ...names: string[]): Promise<void> {
  mkdirSync(dirname(dataFile), { recursive: true });
  const store = await openStore(dataFile);
  try {
    const admin = new Admin(store, { signingKeys: pooledSigningKeys(Math.max(names.length, 1)) });
    for (const name of names) await admin.createRealm(name);
  } finally {
    await store.close();
  }
}
