/**
 * Where the self-contained executable finds the system's CAs, and that it reads them only when
 * the first HTTPS connection is made (src/distribution/trust-store.ts). The executable
 * itself is tested end to end in executable-trust.test.ts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import {
  executableCaCertificates,
  launcherCaCertificates,
  lazyTrustConnector,
  providerTrustConnector,
  systemCaCertificates,
} from '../../../src/distribution/trust-store';
import { createTestCa, type TestCa } from './helpers';

let work: string;
let ca: TestCa;
let caPem: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'orgadmin-trust-store-'));
  ca = await createTestCa(await mkdtemp(join(work, 'ca-')));
  caPem = await readFile(ca.caCertFile, 'utf8');
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('systemCaCertificates', () => {
  it('reads SSL_CERT_FILE instead of the system bundles', async () => {
    const bundle = join(work, 'bundle.pem');
    await writeFile(bundle, rootCertificates[0]!);
    expect(systemCaCertificates({ env: { SSL_CERT_FILE: ca.caCertFile }, bundles: [bundle] })).toEqual([caPem]);
  });

  it('uses the first system bundle that exists when SSL_CERT_FILE is unset', async () => {
    const second = join(work, 'second.pem');
    await writeFile(second, rootCertificates[1]!);
    expect(systemCaCertificates({ env: {}, bundles: [join(work, 'missing.pem'), ca.caCertFile, second] })).toEqual([caPem]);
  });

  it('adds every certificate file of the SSL_CERT_DIR directories and skips what holds none', async () => {
    const one = join(work, 'dir-one');
    const two = join(work, 'dir-two');
    await mkdir(one);
    await mkdir(two);
    await writeFile(join(one, 'a.pem'), caPem);
    await writeFile(join(one, 'README'), 'not a certificate');
    await writeFile(join(two, 'b.0'), rootCertificates[2]!);
    const found = systemCaCertificates({ env: { SSL_CERT_DIR: `${one}:${join(work, 'no-such-dir')}:${two}` }, bundles: [] });
    expect(found).toEqual([caPem, rootCertificates[2]]);
  });

  it('finds nothing where no source exists, without failing', () => {
    expect(systemCaCertificates({ env: { SSL_CERT_FILE: join(work, 'missing.pem') }, bundles: [] })).toEqual([]);
  });
});

describe('executableCaCertificates', () => {
  /** The certificates of PEM texts, whitespace removed, to compare regardless of line breaks. */
  const bodies = (texts: readonly string[]): string[] =>
    texts.flatMap((text) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((pem) => pem.replace(/\s+/g, ''));

  it("holds the system's CAs, NODE_EXTRA_CA_CERTS and Node's bundled roots, each once", async () => {
    const extra = join(work, 'extra.pem');
    await writeFile(extra, caPem);
    // A system bundle that repeats two of Node's roots, as real ones do.
    const system = join(work, 'system.pem');
    const systemPem = `${rootCertificates[0]}\n${rootCertificates[1]}\n`;
    await writeFile(system, systemPem);
    const texts = executableCaCertificates({ env: { NODE_EXTRA_CA_CERTS: extra, SSL_CERT_FILE: system }, bundles: [] });
    expect(new Set(bodies(texts))).toEqual(new Set(bodies([...rootCertificates, caPem])));
    expect(bodies(texts)).toHaveLength(rootCertificates.length + 1);
    // Each source its own text, Node's remaining roots last, so that damage in one hides nothing else.
    expect(texts.slice(0, 2)).toEqual([systemPem, caPem]);
    expect(bodies(texts.slice(2))).toEqual(bodies(rootCertificates.slice(2)));
  });

  it('leaves out texts that hold only certificates seen before (hashed-directory links)', async () => {
    const links = join(work, 'hashed');
    await mkdir(links);
    // The same certificate as SSL_CERT_FILE, as a hashed link would hold it.
    await writeFile(join(links, 'aaaa0000.0'), caPem);
    const texts = executableCaCertificates({ env: { SSL_CERT_FILE: ca.caCertFile, SSL_CERT_DIR: links }, bundles: [] });
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe(caPem);
    expect(bodies(texts)).toHaveLength(rootCertificates.length + 1);
  });
});

describe('launcherCaCertificates', () => {
  it("holds the system's CAs and the file the launcher handed over, each once, and no bundled roots", async () => {
    const system = join(work, 'launcher-system.pem');
    const systemPem = `${rootCertificates[0]}\n${rootCertificates[1]}\n`;
    await writeFile(system, systemPem);
    const extra = join(work, 'launcher-extra.pem');
    await writeFile(extra, caPem);
    expect(launcherCaCertificates({ env: { SSL_CERT_FILE: system, ORGADMIN_EXTRA_CA_CERTS: extra }, bundles: [] })).toEqual([systemPem, caPem]);
    // A handed-over file that repeats the system's certificates adds no text; NODE_EXTRA_CA_CERTS is
    // not the launcher's variable (Node.js never saw it there).
    expect(launcherCaCertificates({ env: { SSL_CERT_FILE: system, ORGADMIN_EXTRA_CA_CERTS: system, NODE_EXTRA_CA_CERTS: extra }, bundles: [] })).toEqual([systemPem]);
  });
});

describe('providerTrustConnector outside the executable', () => {
  it('leaves the default store alone unless the launcher handed over NODE_EXTRA_CA_CERTS', () => {
    expect(providerTrustConnector({})).toBeUndefined();
    expect(providerTrustConnector({ ORGADMIN_EXTRA_CA_CERTS: '' })).toBeUndefined();
    expect(providerTrustConnector({ NODE_EXTRA_CA_CERTS: caPem })).toBeUndefined();
    expect(typeof providerTrustConnector({ ORGADMIN_EXTRA_CA_CERTS: ca.caCertFile })).toBe('function');
  });
});

describe('lazyTrustConnector', () => {
  let plain: HttpServer;
  let secure: HttpsServer;
  let plainUrl: string;
  let secureUrl: string;
  let tlsConnections = 0;

  beforeAll(async () => {
    plain = createHttpServer((_req, res) => res.end('plain'));
    secure = createHttpsServer({ cert: ca.serverCert, key: ca.serverKey }, (_req, res) => res.end('secure'));
    secure.on('secureConnection', () => (tlsConnections += 1));
    await new Promise<void>((resolveListen) => plain.listen(0, '127.0.0.1', resolveListen));
    await new Promise<void>((resolveListen) => secure.listen(0, '127.0.0.1', resolveListen));
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
    secureUrl = `https://localhost:${(secure.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    plain.closeAllConnections();
    secure.closeAllConnections();
    await new Promise<void>((resolveClose) => plain.close(() => resolveClose()));
    await new Promise<void>((resolveClose) => secure.close(() => resolveClose()));
  });

  it('loads the certificates at the first HTTPS connection only, once, and verifies with them', async () => {
    let loads = 0;
    const agent = new Agent({
      connect: lazyTrustConnector(() => {
        loads += 1;
        return [caPem];
      }),
      // A new connection per request, so the second HTTPS request connects again.
      pipelining: 0,
    });
    try {
      expect(await (await request(plainUrl, { dispatcher: agent })).body.text()).toBe('plain');
      expect(loads).toBe(0);
      expect(await (await request(secureUrl, { dispatcher: agent, reset: true })).body.text()).toBe('secure');
      expect(await (await request(secureUrl, { dispatcher: agent, reset: true })).body.text()).toBe('secure');
      expect(tlsConnections).toBe(2);
      expect(loads).toBe(1);
    } finally {
      await agent.close();
    }
  });

  it('still verifies with the good certificates when a trust source holds a damaged one', async () => {
    const damaged = '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n';
    const agent = new Agent({ connect: lazyTrustConnector(() => [damaged, caPem]) });
    try {
      expect(await (await request(secureUrl, { dispatcher: agent })).body.text()).toBe('secure');
    } finally {
      await agent.close();
    }
  });

  it('refuses a server whose CA is not in the list', async () => {
    const agent = new Agent({ connect: lazyTrustConnector(() => [...rootCertificates]) });
    try {
      await expect(request(secureUrl, { dispatcher: agent })).rejects.toThrow(/certificate/i);
    } finally {
      await agent.close();
    }
  });
});
