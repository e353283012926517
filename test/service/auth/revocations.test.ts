import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey } from '../../../src/service/auth/jwt';
import { clientRevocationId, REVOCATION_RECHECK_MS, RevocationList, sessionRevocationId } from '../../../src/service/auth/revocations';
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
  /** A token of client `c1` outside any login session. */
  const token = (jti: string) => ({ jti, azp: 'c1' });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers knownRefused as refuses does while the list is fresh, and not at all once it is due to be read', async () => {
    const list = new RevocationList(store, () => clock);
    // Never read yet: it cannot answer without the store.
    expect(list.knownRefused('acme', token('j1'))).toBeUndefined();
    expect(await list.isRevoked('acme', 'j1')).toBe(false);
    expect(list.knownRefused('acme', token('j1'))).toBe(false);

    // Revoked through this list: known at once.
    await list.revoke('acme', 'j1', clock + 60_000);
    expect(list.knownRefused('acme', token('j1'))).toBe(true);
    expect(list.knownRefused('other', token('j1'))).toBe(false);
    expect(await list.isRevoked('acme', 'j1')).toBe(true);

    // Revoked through another process: the list cannot know before its next read, and says so.
    await store.revokeToken({ realm: 'acme', jti: 'j2', expiresTimestamp: clock + 60_000, revokedTimestamp: clock });
    expect(list.knownRefused('acme', token('j2'))).toBe(false);
    clock += REVOCATION_RECHECK_MS;
    expect(list.knownRefused('acme', token('j2'))).toBeUndefined();
    expect(await list.isRevoked('acme', 'j2')).toBe(true);
    expect(list.knownRefused('acme', token('j2'))).toBe(true);

    // A revocation of a token that has expired since is no longer held.
    clock += 60_000;
    expect(await list.isRevoked('acme', 'j1')).toBe(false);
    expect(list.knownRefused('acme', token('j1'))).toBe(false);
  });

  it('refuses every token of a revoked client and of an ended login session, only in their realm', async () => {
    const list = new RevocationList(store, () => clock);
    const codeFlow = { jti: 'j3', azp: 'spa', sid: 'login-1' };
    expect(await list.refuses('acme', codeFlow)).toBe(false);
    await store.revokeToken({ realm: 'acme', jti: sessionRevocationId('login-1'), expiresTimestamp: clock + 60_000, revokedTimestamp: clock });
    await store.revokeToken({ realm: 'acme', jti: clientRevocationId('c1'), expiresTimestamp: clock + 60_000, revokedTimestamp: clock });
    // Made in the store by another process: seen after the recheck time, or at once after recheckNow.
    expect(list.knownRefused('acme', codeFlow)).toBe(false);
    list.recheckNow();
    expect(list.knownRefused('acme', codeFlow)).toBeUndefined();
    expect(await list.refuses('acme', codeFlow)).toBe(true);
    expect(await list.refuses('acme', { jti: 'j4', azp: 'spa', sid: 'login-2' })).toBe(false);
    expect(await list.refuses('acme', token('j5'))).toBe(true);
    expect(await list.refuses('acme', { jti: 'j6', azp: 'c2' })).toBe(false);
    expect(await list.refuses('other', token('j5'))).toBe(false);
    expect(await list.refuses('other', codeFlow)).toBe(false);
    // A sid that is not a string names no session.
    expect(await list.refuses('acme', { jti: 'j7', azp: 'spa', sid: 42 })).toBe(false);
  });
});
