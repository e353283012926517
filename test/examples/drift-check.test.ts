/**
 * The drift check's summary, from plan JSON in the shape `terraform show -json` prints. The
 * end-to-end runs against real plans are in basic.test.ts and gitops.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDrift, constructPaths, summarizePlan, userIdsOf, type PlanJson } from '../../examples/gitops/drift-check';

const membershipDeleted: PlanJson = {
  resource_drift: [
    {
      address: 'orgadmin_membership.acme_Member-alice_BE346D15',
      type: 'orgadmin_membership',
      change: { actions: ['delete'], before: { id: 'org-1/user-1', organization_id: 'org-1', user_id: 'user-1', realm: 'acme' }, after: null },
    },
  ],
  resource_changes: [
    {
      address: 'orgadmin_membership.acme_Member-alice_BE346D15',
      type: 'orgadmin_membership',
      change: { actions: ['create'], before: null, after: { organization_id: 'org-1', user_id: 'user-1' } },
    },
    {
      address: 'orgadmin_organization.acme',
      type: 'orgadmin_organization',
      change: { actions: ['no-op'], before: { name: 'acme' }, after: { name: 'acme' } },
    },
  ],
};

describe('summarizePlan', () => {
  it('names a membership deleted outside Terraform by address and construct path, and the create that restores it', () => {
    const paths = new Map([['orgadmin_membership.acme_Member-alice_BE346D15', 'basic/acme/Member-alice']]);
    expect(summarizePlan(membershipDeleted, paths).split('\n')).toEqual([
      'Changed outside Terraform (1):',
      '  - orgadmin_membership.acme_Member-alice_BE346D15 (basic/acme/Member-alice): deleted outside Terraform',
      '      was organization_id="org-1", user_id="user-1", realm="acme"',
      'An apply would make 1 change:',
      '  + create orgadmin_membership.acme_Member-alice_BE346D15 (basic/acme/Member-alice)',
      'Run `terraform apply` on this stack (or merge the change that explains the drift) to bring the service back in line.',
    ]);
  });

  it('shows attribute changes, set members joining and leaving, and hides sensitive values', () => {
    const plan: PlanJson = {
      resource_drift: [
        {
          address: 'orgadmin_organization.acme',
          type: 'orgadmin_organization',
          change: {
            actions: ['update'],
            before: { display_name: 'ACME', domains: ['a.com'], token: 'old-secret' },
            after: { display_name: 'Acme (renamed by hand)', domains: ['a.com', 'b.com'], token: 'new-secret' },
            before_sensitive: { token: true },
            after_sensitive: { token: true },
          },
        },
      ],
    };
    const summary = summarizePlan(plan);
    expect(summary.split('\n').slice(0, 5)).toEqual([
      'Changed outside Terraform (1):',
      '  ~ orgadmin_organization.acme: changed outside Terraform',
      '      display_name: "ACME" → "Acme (renamed by hand)"',
      '      domains: +"b.com"',
      '      token (sensitive) changed',
    ]);
    expect(summary).not.toContain('secret');
  });

  it('names users by the names it was given instead of their ids, in removed resources and in set changes', () => {
    const paths = new Map([['orgadmin_membership.acme_Member-alice_BE346D15', 'basic/acme/Member-alice']]);
    const users = { names: new Map([['user-1', 'alice@example.com']]) };
    expect(summarizePlan(membershipDeleted, paths, users).split('\n').slice(0, 3)).toEqual([
      'Changed outside Terraform (1):',
      '  - orgadmin_membership.acme_Member-alice_BE346D15 (basic/acme/Member-alice): deleted outside Terraform',
      '      was organization_id="org-1", user_id=alice@example.com, realm="acme"',
    ]);
    const setDrift: PlanJson = {
      resource_drift: [
        {
          address: 'orgadmin_organization_members.platform_Members_1A2B3C4D',
          type: 'orgadmin_organization_members',
          change: { actions: ['update'], before: { organization_id: 'org-1', user_ids: ['user-1', 'user-2'] }, after: { organization_id: 'org-1', user_ids: ['user-2', 'user-3'] } },
        },
      ],
    };
    const named = { names: new Map([['user-1', 'alice@example.com'], ['user-3', 'carol']]) };
    expect(summarizePlan(setDrift, new Map(), named).split('\n').slice(1, 3)).toEqual([
      '  ~ orgadmin_organization_members.platform_Members_1A2B3C4D: changed outside Terraform',
      '      user_ids: +carol -alice@example.com',
    ]);
    // An id without a name stays the quoted id; organization ids are never replaced.
    const partial = summarizePlan(setDrift, new Map(), { names: new Map([['user-1', 'alice@example.com']]) });
    expect(partial).toContain('user_ids: +"user-3" -alice@example.com');
  });

  it('names the member and the role when a member\'s roles changed outside Terraform, and what the apply grants and revokes', () => {
    const address = 'orgadmin_organization_member_roles.platform_Roles-alice_0A1B2C3D';
    const values = { id: 'org-1/user-1', organization_id: 'org-1', user_id: 'user-1', realm: 'acme' };
    const plan: PlanJson = {
      resource_drift: [
        {
          address,
          type: 'orgadmin_organization_member_roles',
          change: { actions: ['update'], before: { ...values, roles: ['billing', 'on-call'] }, after: { ...values, roles: ['billing', 'view-roles'] } },
        },
      ],
      resource_changes: [
        {
          address,
          type: 'orgadmin_organization_member_roles',
          change: { actions: ['update'], before: { ...values, roles: ['billing', 'view-roles'] }, after: { ...values, roles: ['billing', 'on-call'] } },
        },
      ],
    };
    const users = { names: new Map([['user-1', 'alice@example.com']]) };
    expect(summarizePlan(plan, new Map([[address, 'gitops/platform/Roles-alice']]), users).split('\n')).toEqual([
      'Changed outside Terraform (1):',
      `  ~ ${address} (gitops/platform/Roles-alice): member's roles changed outside Terraform`,
      '      member alice@example.com in organization "org-1"',
      '      granted outside Terraform: "view-roles"',
      '      revoked outside Terraform: "on-call"',
      'An apply would make 1 change:',
      `  ~ update ${address} (gitops/platform/Roles-alice)`,
      '      grant "on-call" to alice@example.com in organization "org-1"',
      '      revoke "view-roles" from alice@example.com in organization "org-1"',
      'Run `terraform apply` on this stack (or merge the change that explains the drift) to bring the service back in line.',
    ]);
  });

  it('says which roles a member who was removed by hand held', () => {
    const address = 'orgadmin_organization_member_roles.r';
    const plan: PlanJson = {
      resource_drift: [
        {
          address,
          type: 'orgadmin_organization_member_roles',
          change: { actions: ['delete'], before: { organization_id: 'org-1', user_id: 'user-1', roles: ['billing'] }, after: null },
        },
      ],
    };
    expect(summarizePlan(plan).split('\n').slice(1, 4)).toEqual([
      `  - ${address}: member's roles gone outside Terraform`,
      '      member "user-1" in organization "org-1"',
      '      held "billing"; a removed member loses their roles',
    ]);
  });

  it('says why users are shown by id when the lookup could not name them', () => {
    const note = 'Users are named by id: the credentials may not look users up (that needs the view-users permission).';
    const lines = summarizePlan(membershipDeleted, new Map(), { names: new Map(), note }).split('\n');
    expect(lines).toContain('      was organization_id="org-1", user_id="user-1", realm="acme"');
    expect(lines.slice(-2)).toEqual([note, 'Run `terraform apply` on this stack (or merge the change that explains the drift) to bring the service back in line.']);
  });

  it('says when nothing drifted but the configuration has unapplied changes', () => {
    const plan: PlanJson = {
      resource_changes: [
        {
          address: 'orgadmin_organization.acme',
          type: 'orgadmin_organization',
          change: { actions: ['update'], before: { display_name: 'ACME', domains: ['a.com'] }, after: { display_name: 'Acme', domains: ['b.com'] } },
        },
      ],
    };
    expect(summarizePlan(plan).split('\n')).toEqual([
      'Nothing changed outside Terraform: the configuration has changes that are not applied yet.',
      'An apply would make 1 change:',
      '  ~ update orgadmin_organization.acme',
      '      display_name: "ACME" → "Acme"',
      '      domains: +"b.com" -"a.com"',
      'Run `terraform apply` on this stack (or merge the change that explains the drift) to bring the service back in line.',
    ]);
  });
});

describe('userIdsOf', () => {
  it('collects user_id and user_ids before and after, by the realm of each resource or the default realm', () => {
    const plan: PlanJson = {
      resource_drift: [
        { address: 'a', type: 'orgadmin_membership', change: { actions: ['delete'], before: { user_id: 'u1', realm: 'acme' }, after: null } },
        { address: 'b', type: 'orgadmin_organization_members', change: { actions: ['update'], before: { user_ids: ['u2'] }, after: { user_ids: ['u2', 'u3'] } } },
      ],
      resource_changes: [
        { address: 'c', type: 'orgadmin_membership', change: { actions: ['create'], before: null, after: { user_id: 'u4', realm: 'other', organization_id: 'o1' } } },
        { address: 'd', type: 'orgadmin_organization', change: { actions: ['update'], before: { name: 'x' }, after: { name: 'y' } } },
      ],
    };
    const byRealm = userIdsOf(plan, 'acme');
    expect([...byRealm].map(([realm, ids]) => [realm, [...ids].sort()])).toEqual([
      ['acme', ['u1', 'u2', 'u3']],
      ['other', ['u4']],
    ]);
  });
});

describe('constructPaths and checkDrift', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgadmin-drift-unit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads construct paths from the metadata cdktf writes into cdk.tf.json', async () => {
    const stackDir = join(dir, 'paths');
    await import('node:fs/promises').then((fs) => fs.mkdir(stackDir));
    await writeFile(
      join(stackDir, 'cdk.tf.json'),
      JSON.stringify({
        resource: { orgadmin_organization: { acme: { '//': { metadata: { path: 'basic/acme/Default' } }, name: 'acme' } } },
        data: { orgadmin_user: { alice: { '//': { metadata: { path: 'basic/alice/Default' } }, email: 'a@x' } } },
      }),
    );
    expect([...constructPaths(stackDir)]).toEqual([
      ['orgadmin_organization.acme', 'basic/acme'],
      ['data.orgadmin_user.alice', 'basic/alice'],
    ]);
  });

  it('fails with exit code 1 and says what to do when the directory holds no synthesized stack', async () => {
    const report = await checkDrift({ dir });
    expect(report).toEqual({ exitCode: 1, summary: `Drift check failed: ${dir} holds no cdk.tf.json; synthesize the stack first.` });
  });
});
