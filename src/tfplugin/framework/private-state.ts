/**
 * Provider-private state: bytes Terraform stores beside a resource's state and hands back on every
 * later call, never shown to users. The framework keeps them as a JSON object of keys, as
 * terraform-plugin-framework does, so that separate concerns of one resource can each keep a key.
 *
 * Terraform's flow of these bytes, which resources rely on:
 * - ReadResource gets the state's bytes and returns the bytes to keep;
 * - PlanResourceChange gets the prior state's bytes and returns "planned private" bytes;
 * - ApplyResourceChange gets the planned bytes and returns the new state's bytes. The destroy half
 *   of a replacement gets the planned bytes of the replacing create's plan.
 */
import type { PrivateData } from './types';

/** A mutable {@link PrivateData}, decoded from and encoded to Terraform's private bytes. */
export class PrivateState implements PrivateData {
  private readonly entries: Map<string, unknown>;
  /** The bytes this state was decoded from, handed back unchanged while no key is set. */
  private readonly original: Buffer | undefined;
  private changed = false;

  private constructor(entries: Map<string, unknown>, original: Buffer | undefined) {
    this.entries = entries;
    this.original = original;
  }

  /**
   * Decodes private bytes. Bytes that are not a JSON object (none, or written by something else)
   * decode to an empty state: private data is a hint the provider keeps for itself, never required.
   * Until a key is set, {@link encode} gives the original bytes back unchanged.
   */
  static decode(bytes: Uint8Array | undefined): PrivateState {
    const entries = new Map<string, unknown>();
    if (bytes && bytes.length > 0) {
      try {
        const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
          for (const [key, value] of Object.entries(parsed)) entries.set(key, value);
        }
      } catch {
        // Not ours: start empty.
      }
    }
    return new PrivateState(entries, bytes && bytes.length > 0 ? Buffer.from(bytes) : undefined);
  }

  /** {@inheritDoc PrivateData.get} */
  get(key: string): unknown {
    return this.entries.get(key);
  }

  /** {@inheritDoc PrivateData.set} */
  set(key: string, value: unknown): void {
    if (value === undefined) this.entries.delete(key);
    else this.entries.set(key, value);
    this.changed = true;
  }

  /** The bytes to hand to Terraform: the original ones when nothing was set, undefined when no key is left. */
  encode(): Buffer | undefined {
    if (!this.changed) return this.original;
    if (this.entries.size === 0) return undefined;
    return Buffer.from(JSON.stringify(Object.fromEntries(this.entries)), 'utf8');
  }
}
