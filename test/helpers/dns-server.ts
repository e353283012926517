/**
 * Test helper: an authoritative DNS server for TXT records on a free UDP port of 127.0.0.1, built
 * on dns-packet (the message format) and node:dgram. The service under test asks it through
 * `dnsServer` / `orgadmin serve --dns-server`, so domain verification makes real DNS queries.
 *
 * A name with records answers them; any other name answers NXDOMAIN (what a missing record looks
 * like to a resolver). `onQuery` lets a test act when the service asks (publish a record between
 * two lookups of a waiting apply) without sleeping.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

/** The NXDOMAIN response code (RFC 1035 §4.1.1) in the header's low bits. */
const NXDOMAIN = 3;

/** One question the server was asked. */
export interface DnsQuery {
  name: string;
  type: string;
}

/** A running test DNS server. */
export interface TestDnsServer {
  /** `127.0.0.1:PORT`, for `dnsServer` and `--dns-server`. */
  address: string;
  /** Every question asked, in order. */
  queries: DnsQuery[];
  /** Publishes TXT records at `name` (replacing earlier ones); each value one string of the record. */
  setTxt(name: string, values: string[]): void;
  /** Removes every record at `name`. */
  remove(name: string): void;
  /** Calls `listener` for each question before it is answered, until the returned function is called. */
  onQuery(listener: (query: DnsQuery) => void): () => void;
  close(): Promise<void>;
}

/** Splits a value into the ≤255-byte character strings of one TXT record (RFC 1035 §3.3.14). */
function characterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 255) parts.push(bytes.subarray(at, at + 255));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, string[]>();
  const queries: DnsQuery[] = [];
  const listeners = new Set<(query: DnsQuery) => void>();
  const socket: Socket = createSocket('udp4');

  socket.on('message', (message: Buffer, remote: RemoteInfo) => {
    let request: dnsPacket.DecodedPacket;
    try {
      request = dnsPacket.decode(message);
    } catch {
      return; // not a DNS message: a real server drops it too
    }
    const question = request.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    const query = { name, type: question.type };
    queries.push(query);
    for (const listener of [...listeners]) listener(query);
    const values = zone.get(name);
    const answers: dnsPacket.Answer[] =
      values && question.type === 'TXT' ? values.map((value) => ({ type: 'TXT', name: question.name, ttl: 0, class: 'IN', data: characterStrings(value) })) : [];
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | (values === undefined ? NXDOMAIN : 0);
    const response = dnsPacket.encode({ type: 'response', id: request.id, flags, questions: request.questions, answers });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    queries,
    setTxt: (name, values) => void zone.set(name.toLowerCase(), [...values]),
    remove: (name) => void zone.delete(name.toLowerCase()),
    onQuery(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
