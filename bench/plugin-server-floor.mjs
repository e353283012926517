/**
 * The start-up floor of any Terraform provider written for Node.js: a process that does only what
 * the plugin protocol requires before its handshake line, with none of the provider's own code.
 * bench/provider-startup.mjs bundles it (esbuild) and times it as the "floor" row, so the ratio
 * target (spawn to handshake against `node -e ''`) can be read against what Node.js itself makes
 * possible.
 *
 * What it does, all of it required by go-plugin's automatic mutual TLS:
 * - loads `node:tls` (it loads `node:net`), as the provider does, which frames HTTP/2 itself
 *   (src/tfplugin/protocol/http2/);
 * - makes a fresh ECDSA P-256 key and a self-signed certificate for it (the provider's own
 *   certificate module: Node.js has no X.509 builder), printed in the handshake line;
 * - makes the TLS server that asks for Terraform's client certificate (`ca: []`, so Node.js does
 *   not build its root store, as the provider does);
 * - listens on a unix socket in a fresh directory and prints the handshake line.
 * It serves nothing and exits on SIGTERM.
 *
 * With ORGADMIN_FLOOR_TRANSPORT=http2 (bench/provider-startup.mjs bundles that variant with the
 * value fixed) it makes the same server with Node.js's `node:http2` instead: the floor of a
 * provider built on Node.js's own HTTP/2, which this one was until it framed HTTP/2 itself.
 */
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCertificate } from '../src/tfplugin/protocol/certificate';
import { listenOnUnixSocket } from '../src/tfplugin/protocol/unix-listen';

const certificate = generateCertificate();
const serverOptions = {
  key: certificate.keyPem,
  cert: certificate.certPem,
  ca: [],
  requestCert: true,
  rejectUnauthorized: false,
  minVersion: 'TLSv1.2',
  ALPNProtocols: ['h2'],
};
// Loaded on demand, so that the node:tls variant never loads node:http2.
const server =
  process.env.ORGADMIN_FLOOR_TRANSPORT === 'http2'
    ? process.getBuiltinModule('node:http2').createSecureServer(serverOptions)
    : process.getBuiltinModule('node:tls').createServer(serverOptions);
const dir = mkdtempSync(join(tmpdir(), 'plugin'));
const socket = join(dir, 'plugin.sock');
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
process.once('SIGTERM', () => process.exit(0));
listenOnUnixSocket(server, socket, () => {
  const cert = certificate.der.toString('base64').replace(/=+$/, '');
  writeSync(1, `1|6|unix|${socket}|grpc|${cert}\n`);
});
