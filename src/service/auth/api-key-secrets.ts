/**
 * API-key secrets under the store's server-side HMAC key: hashing new secrets, checking presented
 * ones in the same time whether the client id exists or not, and moving legacy scrypt hashes to
 * HMAC on their first successful use.
 *
 * The server-side key lives in the database (`server_secrets`, created by the first instance that
 * needs it), so every instance on one database agrees on it; it is read once per process and never
 * logged or returned.
 */
import type { ApiKeyRecord, Store } from '../store/store';
import { generateServerKey, hmacSecret, isHmacHash, verifyHmacSecret, verifySecret } from './secrets';

/** Name of the server-side key in the store's `server_secrets`. */
export const API_KEY_HMAC_KEY_NAME = 'api-key-secret-hmac';

/** Hashes and checks API-key secrets of one store. */
export class ApiKeySecrets {
  private key: Promise<Buffer> | undefined;
  /** The hash unknown client ids are compared against (made once, so both paths do one HMAC). */
  private unknownHash: string | undefined;

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {}

  /** The server-side key, created in the store on first use. */
  private serverKey(): Promise<Buffer> {
    this.key ??= this.store
      .serverSecret(API_KEY_HMAC_KEY_NAME, generateServerKey(), this.now())
      .then((value) => Buffer.from(value, 'base64url'))
      .catch((error: unknown) => {
        this.key = undefined; // a failed read must not stick: try again next time
        throw error;
      });
    return this.key;
  }

  /** The stored form of a new secret. */
  async hash(secret: string): Promise<string> {
    return hmacSecret(secret, await this.serverKey());
  }

  /**
   * True when `secret` matches `stored`, a hash made by {@link ApiKeySecrets.hash} (a confidential
   * OpenID Connect client's secret): one HMAC and a constant-time comparison.
   */
  async matches(stored: string, secret: string): Promise<boolean> {
    return verifyHmacSecret(secret, stored, await this.serverKey());
  }

  /**
   * True when `secret` is the secret of `key`. Without a key (unknown client id) the secret is
   * still hashed and compared, against a hash no secret has, so the answer takes as long as for a
   * known key. A legacy scrypt hash is checked with scrypt (slow) and, when the secret is right,
   * replaced by its HMAC form, so each key pays that cost once.
   */
  async verify(key: ApiKeyRecord | undefined, secret: string): Promise<boolean> {
    const serverKey = await this.serverKey();
    if (key === undefined || isHmacHash(key.secretHash)) {
      // An unknown key compares against the hash of a value no client can send (it has a NUL).
      this.unknownHash ??= hmacSecret('\u0000unknown client', serverKey);
      const stored = key?.secretHash ?? this.unknownHash;
      return verifyHmacSecret(secret, stored, serverKey) && key !== undefined;
    }
    if (!(await verifySecret(secret, key.secretHash))) return false;
    await this.store.replaceApiKeySecretHash(key.clientId, key.secretHash, hmacSecret(secret, serverKey));
    return true;
  }
}
