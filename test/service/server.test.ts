import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoveryPath } from '../../src/api';
import { Admin, startServer } from '../../src/service';

describe('startServer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-server-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('opens the store, listens on the given port and closes everything', async () => {
    const server = await startServer({ dataFile: join(dir, 'server.db'), host: '127.0.0.1', port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await new Admin(server.store).createRealm('acme');
      const res = await fetch(`${server.url}${discoveryPath('acme')}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { issuer: string }).issuer).toBe(`${server.url}/realms/acme`);
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}${discoveryPath('acme')}`)).rejects.toThrow();
    // close is idempotent
    await server.close();
  });

  it('writes URLs from publicBaseUrl when given (issuer, token endpoint), keeping the path realm', async () => {
    const server = await startServer({ dataFile: join(dir, 'public.db'), port: 0, publicBaseUrl: 'https://orgs.example.com' });
    try {
      await new Admin(server.store).createRealm('acme');
      const res = await fetch(`${server.url}${discoveryPath('acme')}`);
      expect(res.status).toBe(200);
      const discovery = (await res.json()) as { issuer: string; token_endpoint: string };
      expect(discovery.issuer).toBe('https://orgs.example.com/realms/acme');
      expect(discovery.token_endpoint).toBe('https://orgs.example.com/realms/acme/protocol/openid-connect/token');
    } finally {
      await server.close();
    }
  });

  it('fails cleanly when the port is taken', async () => {
    const first = await startServer({ dataFile: join(dir, 'a.db'), port: 0 });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startServer({ dataFile: join(dir, 'b.db'), port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
