import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey } from '../../../src/service/auth/jwt';
import { REVOCATION_RECHECK_MS, RevocationList } from '../../../src/service/auth/revocations';
import { SqliteStore } from '../../../src/service/store/sqlite-store';

describe('RevocationList', () => {
  const signingKey = generateSigningKey();
  let dir: string;
  let store: SqliteStore;
  /** The list's clock (ms): tests step it instead of sleeping. */
  let clock: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-revocations-'));
    store = SqliteStore.open(join(dir, 'data.db'));
    clock = 1_000_000;
    for (const name of ['acme', 'other']) {
      await store.createRealm({ name, enabled: true, tokenLifetimeSeconds: 300, createAdminUser: false, organizationsClaim: false, rateLimit: null, createdTimestamp: 1, ...signingKey });
    }
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers knownRevoked as isRevoked does while the list is fresh, and not at all once it is due to be read', async () => {
    const list = new RevocationList(store, () => clock);
    // Never read yet: it cannot answer without the store.
    expect(list.knownRevoked('acme', 'j1')).toBeUndefined();
    expect(await list.isRevoked('acme', 'j1')).toBe(false);
    expect(list.knownRevoked('acme', 'j1')).toBe(false);

    // Revoked through this list: known at once.
    await list.revoke('acme', 'j1', clock + 60_000);
    expect(list.knownRevoked('acme', 'j1')).toBe(true);
    expect(list.knownRevoked('other', 'j1')).toBe(false);
    expect(await list.isRevoked('acme', 'j1')).toBe(true);

    // Revoked through another process: the list cannot know before its next read, and says so.
    await store.revokeToken({ realm: 'acme', jti: 'j2', expiresTimestamp: clock + 60_000, revokedTimestamp: clock });
    expect(list.knownRevoked('acme', 'j2')).toBe(false);
    clock += REVOCATION_RECHECK_MS;
    expect(list.knownRevoked('acme', 'j2')).toBeUndefined();
    expect(await list.isRevoked('acme', 'j2')).toBe(true);
    expect(list.knownRevoked('acme', 'j2')).toBe(true);

    // A revocation of a token that has expired since is no longer held.
    clock += 60_000;
    expect(await list.isRevoked('acme', 'j1')).toBe(false);
    expect(list.knownRevoked('acme', 'j1')).toBe(false);
  });
});
