/**
 * The DNS TXT lookup behind domain verification: a real query, through the system's resolvers or
 * the one server the service was started with (`orgadmin serve --dns-server HOST:PORT`), with no
 * cache, so a record published a moment ago is seen at once (as the vendor's lookup, which turns
 * its cache off).
 */
import { Resolver } from 'node:dns/promises';

/** What a lookup found. */
export type TxtAnswer =
  /** The TXT records at the name, each record's strings joined (RFC 7208 §3.3 style). */
  | { kind: 'records'; values: string[] }
  /** The name does not exist, or has no TXT record. */
  | { kind: 'none' }
  /** The server did not answer, or answered with an error: nothing is known. */
  | { kind: 'failed'; reason: string };

/** Looks up the TXT records of a DNS name. */
export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/** Options of {@link dnsTxtLookup}. */
export interface TxtLookupOptions {
  /** `HOST:PORT` (or an address alone, port 53) of the one DNS server to ask; default the system's resolvers. */
  server?: string;
  /** How long to wait for one answer. @default 3000 */
  timeoutMs?: number;
  /** How many times to ask before giving up. @default 2 */
  tries?: number;
}

/** Error codes of node:dns that mean "no such record" rather than "no answer". */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/** Why `server` cannot be a DNS server address, or undefined: `HOST:PORT`, `[IPv6]:PORT` or an address alone. */
export function dnsServerProblem(server: string): string | undefined {
  try {
    new Resolver().setServers([server]);
    return undefined;
  } catch {
    return 'is not an IP address with an optional port (HOST:PORT, [IPv6]:PORT)';
  }
}

/** A {@link TxtLookup} over node:dns (c-ares). */
export function dnsTxtLookup(options: TxtLookupOptions = {}): TxtLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: options.tries ?? 2 });
  if (options.server !== undefined) resolver.setServers([options.server]);
  return async (name) => {
    try {
      const records = await resolver.resolveTxt(name);
      return { kind: 'records', values: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? 'unknown');
      if (NO_RECORD.has(code)) return { kind: 'none' };
      return { kind: 'failed', reason: code };
    }
  };
}
