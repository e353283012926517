/**
 * Where webhooks may send: a URL of the public internet, never the service's own machine or network
 * (loopback, link-local such as cloud metadata at 169.254.169.254, private and shared ranges),
 * unless the operator allows it (`serve --allow-private-webhooks`). Checked when a webhook is
 * created or changed, and again at every connection (names can resolve differently later).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webhook may not reach unless private webhooks are allowed. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is loopback, link-local, private or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family !== 6) return true;
  // IPv4 written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(bare, 'ipv6');
}

/** Resolves a host name to all its addresses. */
export type ResolveAll = (host: string) => Promise<string[]>;

/** The system resolver (what connections use). */
export const systemResolveAll: ResolveAll = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((a) => a.address)))));

/**
 * Why `raw` cannot be a webhook URL, or undefined: an absolute http or https URL without user
 * information, whose host (every address it resolves to) is public unless `allowPrivate`.
 */
export async function webhookUrlProblem(raw: string, allowPrivate: boolean, resolveAll: ResolveAll = systemResolveAll): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password (the payload is signed instead)';
  if (/\s/.test(raw)) return 'must not contain white space';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await resolveAll(host);
    } catch {
      return `names a host (${host}) that does not resolve`;
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    return `reaches ${blocked}, a loopback, link-local or private address; the service refuses those unless started with --allow-private-webhooks`;
  }
  return undefined;
}

/**
 * A `lookup` for outgoing connections that refuses private addresses (unless allowed), so a name
 * that resolved to a public address when the webhook was saved cannot be pointed inwards later.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves only to loopback, link-local or private addresses`), { code: 'EADDRNOTAVAIL' });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
