/**
 * `examples/terraform-test`: a module with a `.tftest.hcl`, run by `terraform test` against the
 * local service as its README says (realm `demo` with alice, bob and carol). Its runs apply,
 * assert, update and expect a validation failure; terraform destroys what they made.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { organizationNames, startE2E, type E2EFixture } from '../e2e/helpers/fixture';
import { REPO_ROOT } from './helpers';

jest.setTimeout(180_000);

let fx: E2EFixture;

beforeAll(async () => {
  fx = await startE2E({ realm: 'demo', usernames: ['alice', 'bob', 'carol'] });
});

afterAll(async () => {
  await fx?.close();
});

describe('examples/terraform-test', () => {
  it('passes terraform test against the local service and leaves nothing behind', async () => {
    const ws = await fx.workspace();
    // A copy, so that init writes nothing into the repository.
    await cp(join(REPO_ROOT, 'examples', 'terraform-test'), ws.dir, { recursive: true });
    await ws.init();
    const result = await ws.run(['test', '-no-color']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('run "creates_the_team_with_its_members"... pass');
    expect(result.stdout).toContain('run "adds_a_member_in_place"... pass');
    expect(result.stdout).toContain('run "refuses_a_name_with_spaces"... pass');
    expect(result.stdout).toContain('Success! 3 passed, 0 failed.');
    expect(result.code).toBe(0);
    expect(await organizationNames(fx)).toEqual([]);
  });
});
