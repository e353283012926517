/**
 * A minimal npm registry for one scope, serving packed tarballs over HTTP on 127.0.0.1: the
 * packument of each package (`GET /@scope%2fname`) and the tarballs, recording every request. An
 * app points the scope at it in its `.npmrc` (`@scope:registry=...`) and gets everything else from
 * its usual registry, so a test sees exactly which of the scope's tarballs npm downloaded.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tarEntry } from '../../src/distribution/bun-runtime';

/** A running registry. */
export interface ScopeRegistry {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** Request paths answered, in order. */
  readonly requests: string[];
  /** The paths of tarball downloads among {@link requests}. */
  tarballRequests(): string[];
  close(): Promise<void>;
}

/** Serves `tarballs` (each an `npm pack` output) as the packages they hold, one version each. */
export async function startScopeRegistry(tarballs: readonly string[]): Promise<ScopeRegistry> {
  const requests: string[] = [];
  const packuments = new Map<string, unknown>();
  const files = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    requests.push(path);
    const file = files.get(path);
    if (file !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length }).end(file);
      return;
    }
    const packument = packuments.get(path.slice(1));
    if (packument === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  for (const tarball of tarballs) {
    const content = await readFile(tarball);
    const manifestBytes = tarEntry(gunzipSync(content), 'package/package.json');
    if (manifestBytes === undefined) throw new Error(`${tarball} holds no package/package.json`);
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as { name: string; version: string };
    const tarballPath = `/tarballs/${basename(tarball)}`;
    files.set(tarballPath, content);
    packuments.set(manifest.name, {
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: {
        [manifest.version]: {
          ...manifest,
          dist: {
            tarball: `${url}${tarballPath.slice(1)}`,
            shasum: createHash('sha1').update(content).digest('hex'),
            integrity: `sha512-${createHash('sha512').update(content).digest('base64')}`,
          },
        },
      },
    });
  }
  return {
    url,
    requests,
    tarballRequests: () => requests.filter((path) => path.startsWith('/tarballs/')),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
