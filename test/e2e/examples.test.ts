/**
 * End to end: the HCL under examples/hcl works with the real provider. `main.tf` is applied
 * against a service set up like `npm start`'s demo (realm `demo`, users alice, bob and carol), and
 * every snippet embedded in the generated docs passes `terraform validate`.
 */
import { cp, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { memberIds, organizationNames, startE2E, type E2EFixture } from './helpers/fixture';
import { REQUIRED_PROVIDERS } from './helpers/terraform';

jest.setTimeout(120_000);

const EXAMPLES = resolve(__dirname, '..', '..', 'examples', 'hcl');

let fx: E2EFixture;

beforeAll(async () => {
  fx = await startE2E({ realm: 'demo', usernames: ['alice', 'bob', 'carol'] });
});

afterAll(async () => {
  await fx?.close();
});

describe('examples/hcl/main.tf', () => {
  it('applies against the demo realm, plans no changes afterwards, and destroys', async () => {
    const ws = await fx.workspace();
    await cp(join(EXAMPLES, 'main.tf'), join(ws.dir, 'main.tf'));
    await ws.init();

    const apply = await ws.apply();
    expect(apply.stdout).toContain('Apply complete! Resources: 5 added, 0 changed, 0 destroyed.');
    expect(await organizationNames(fx)).toEqual(['acme', 'globex']);
    const acmeId = (await ws.run(['output', '-raw', 'acme_id'])).stdout;
    const globexId = (await ws.run(['output', '-raw', 'globex_id'])).stdout;
    const { alice, bob, carol } = fx.users;
    expect(await memberIds(fx, acmeId)).toEqual([alice!.id, bob!.id].sort());
    expect(await memberIds(fx, globexId)).toEqual([bob!.id, carol!.id].sort());

    const plan = await ws.plan();
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);

    expect((await ws.run(['destroy', '-auto-approve', '-input=false'])).code).toBe(0);
    expect(await organizationNames(fx)).toEqual([]);
  });
});

describe('the examples embedded in docs/', () => {
  it('each pass terraform validate with the real provider schema', async () => {
    const snippets: Array<[string, string]> = [['provider/provider.tf', await readFile(join(EXAMPLES, 'provider', 'provider.tf'), 'utf8')]];
    const files: Record<string, string> = {
      resources: 'resource.tf',
      'data-sources': 'data-source.tf',
      'ephemeral-resources': 'ephemeral-resource.tf',
      functions: 'function.tf',
    };
    for (const [kind, file] of Object.entries(files)) {
      for (const type of (await readdir(join(EXAMPLES, kind))).sort()) {
        snippets.push([`${kind}/${type}/${file}`, REQUIRED_PROVIDERS + (await readFile(join(EXAMPLES, kind, type, file), 'utf8'))]);
      }
    }
    expect(snippets.length).toBeGreaterThanOrEqual(12);

    const ws = await fx.workspace();
    await ws.writeConfig({ 'main.tf': REQUIRED_PROVIDERS });
    await ws.init();
    const failures: string[] = [];
    for (const [name, hcl] of snippets) {
      await ws.writeConfig({ 'main.tf': hcl });
      const result = await ws.run(['validate']);
      if (result.code !== 0) failures.push(`${name}:\n${result.stderr}`);
    }
    expect(failures).toEqual([]);
  });
});
