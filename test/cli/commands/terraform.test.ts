/**
 * `orgadmin terraform import-blocks` against a real service: the blocks it writes for a realm, by
 * the provider's import id forms; its choices and its errors. The terraform run that adopts a realm
 * with these blocks is test/e2e/adopt-realm.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseImportId } from '../../../src/provider/import-id';
import { MEMBERSHIP_IMPORT_ID } from '../../../src/provider/resources/membership';
import { RecordingDiagnostics } from '../../../src/tfplugin/testing/harness';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../../src/client';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';
import { createSandbox, type CliSandbox } from '../harness';

let svc: TestService;
let sandbox: CliSandbox;
let env: NodeJS.ProcessEnv;
let ids: { acme: string; acmeSpaced: string; weird: string };
let users: { alice: string; bob: string };

beforeAll(async () => {
  svc = await startTestService();
  sandbox = createSandbox();
  const { realm, clientId, clientSecret } = await createTestRealm(svc, 'acme');
  env = { ORGADMIN_BASE_URL: svc.baseUrl, ORGADMIN_REALM: realm, ORGADMIN_CLIENT_ID: clientId, ORGADMIN_CLIENT_SECRET: clientSecret };
  const client = new OrgAdminClient({ baseUrl: svc.baseUrl, realm, tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId, clientSecret }) });
  users = {
    alice: (await svc.admin.createUser(realm, { username: 'alice' })).id,
    bob: (await svc.admin.createUser(realm, { username: 'Bob.Smith' })).id,
  };
  ids = {
    acme: await client.createOrganization({ name: 'acme-corp' }),
    acmeSpaced: await client.createOrganization({ name: 'Acme Corp' }),
    weird: await client.createOrganization({ name: '42 ${weird}' }),
  };
  await client.addMember(ids.acme, users.alice);
  await client.addMember(ids.acme, users.bob);
  await client.addMember(ids.acmeSpaced, users.alice);
  await client.close();
});

afterAll(async () => {
  sandbox.cleanup();
  await svc.close();
});

const run = (...argv: string[]): ReturnType<CliSandbox['runRaw']> => sandbox.runRaw(['terraform', 'import-blocks', ...argv], env);

/** The `to` and `id` of every import block of `text`. */
function blocksOf(text: string): Array<{ to: string; id: string }> {
  return [...text.matchAll(/import \{\n {2}to = (\S+)\n {2}id = ("(?:[^"\\]|\\.)*")\n\}/g)].map((m) => ({ to: m[1]!, id: JSON.parse(m[2]!) as string }));
}

describe('orgadmin terraform import-blocks', () => {
  it('writes an organization block and one membership block per member, the admin user left out', async () => {
    const result = await run('--realm', 'acme');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Import blocks for realm acme, written by "orgadmin terraform import-blocks": 6 resources\n# \(3 orgadmin_organization, 3 orgadmin_membership\)/);
    // Organizations come sorted by name, as the service lists them.
    expect(blocksOf(result.stdout)).toEqual([
      { to: 'orgadmin_organization.r_42_weird', id: `acme/${ids.weird}` },
      { to: 'orgadmin_organization.acme_corp', id: `acme/${ids.acmeSpaced}` },
      { to: 'orgadmin_membership.acme_corp_alice', id: `acme/${ids.acmeSpaced}/${users.alice}` },
      { to: 'orgadmin_organization.acme-corp', id: `acme/${ids.acme}` },
      { to: 'orgadmin_membership.acme-corp_alice', id: `acme/${ids.acme}/${users.alice}` },
      { to: 'orgadmin_membership.acme-corp_bob_smith', id: `acme/${ids.acme}/${users.bob}` },
    ]);
  });

  it('writes ids that the resources\' own import parses back', async () => {
    const { stdout } = await run('--realm', 'acme');
    for (const { to, id } of blocksOf(stdout).filter((b) => b.to.startsWith('orgadmin_membership.'))) {
      const diags = new RecordingDiagnostics();
      expect({ to, parsed: parseImportId(id, MEMBERSHIP_IMPORT_ID, diags) }).toEqual({ to, parsed: { realm: 'acme', ids: id.split('/').slice(1) } });
    }
  });

  it('writes one member set per organization with --members set, into --out', async () => {
    const result = await run('--realm', 'acme', '--members', 'set', '--out', 'imports.tf');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('3 orgadmin_organization, 3 orgadmin_organization_members');
    expect(result.stdout).toContain('Next: terraform plan -generate-config-out=generated.tf');
    const text = await readFile(join(sandbox.dir, 'imports.tf'), 'utf8');
    expect(blocksOf(text).filter((b) => b.to.startsWith('orgadmin_organization_members.'))).toEqual([
      { to: 'orgadmin_organization_members.r_42_weird', id: `acme/${ids.weird}` },
      { to: 'orgadmin_organization_members.acme_corp', id: `acme/${ids.acmeSpaced}` },
      { to: 'orgadmin_organization_members.acme-corp', id: `acme/${ids.acme}` },
    ]);
  });

  it('refuses an unknown member style and incomplete settings, saying what to set', async () => {
    expect(await run('--realm', 'acme', '--members', 'some')).toMatchObject({ code: 2, stderr: expect.stringContaining('use membership or set') });
    const missing = await sandbox.runRaw(['terraform', 'import-blocks', '--realm', 'acme'], { ORGADMIN_BASE_URL: svc.baseUrl });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Missing credentials');
    expect(missing.stderr).toContain('ORGADMIN_CLIENT_ID');
  });

  it('reports a realm the key cannot read, without its secret', async () => {
    const result = await sandbox.runRaw(['terraform', 'import-blocks', '--realm', 'nope'], { ...env, ORGADMIN_REALM: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not read realm nope');
    expect(result.stderr).not.toContain(env.ORGADMIN_CLIENT_SECRET);
  });
});
