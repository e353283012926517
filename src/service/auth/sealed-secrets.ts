/**
 * Secrets the service must be able to read back (an identity provider's client secret, which it
 * presents to the upstream), kept sealed in the database: AES-256-GCM under a server-side key that
 * lives in the store's `server_secrets` (made by the first instance that needs it, shared by every
 * instance on the database). A copy of the database alone does not reveal them, and a sealed value
 * moved to another provider's row does not open (the row's identity is the associated data).
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Store } from '../store/store';
import { generateServerKey } from './secrets';

/** Name of the sealing key in the store's `server_secrets`. */
export const SEALING_KEY_NAME = 'sealed-secrets-aes-256-gcm';

const VERSION = 'v1';

/** Seals and opens secrets under one store's server-side key. */
export class SealedSecrets {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  private sealingKey(): Promise<Buffer> {
    this.key ??= this.store
      .serverSecret(SEALING_KEY_NAME, generateServerKey(), this.now())
      .then((value) => Buffer.from(value, 'base64url'))
      .catch((error: unknown) => {
        this.key = undefined; // a failed read must not stick
        throw error;
      });
    return this.key;
  }

  /** Seals `secret` for the row named by `context` (e.g. `realm/alias`). */
  async seal(secret: string, context: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.sealingKey(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The secret sealed for `context`; throws when the value is malformed, tampered with, or sealed for another row. */
  async open(sealed: string, context: string): Promise<string> {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== VERSION || iv === undefined || data === undefined || tag === undefined) throw new Error('not a sealed secret of this service');
    const decipher = createDecipheriv('aes-256-gcm', await this.sealingKey(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
