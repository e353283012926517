/**
 * The basic example: two organizations of the demo users, one with additive memberships and one
 * with an authoritative member set, every user named by email.
 *
 * The provider settings (service address, realm, API key) come from the `ORGADMIN_*` environment
 * variables of the `terraform` process, so nothing secret is written into `cdk.tf.json`.
 */
import { LocalBackend, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
// In a project of your own: `from 'orgadmin/constructs'`.
import { OrgAdminProvider, Organization, User, type OrgAdminProviderProps } from '../../src/constructs';

/** Props of {@link BasicStack}. */
export interface BasicStackProps {
  /**
   * Where Terraform keeps the state (a local file).
   * @default `terraform.<stack id>.tfstate` in the synthesized stack's directory
   */
  readonly stateFile?: string;
  /**
   * Provider settings.
   * @default everything from the `ORGADMIN_*` environment variables
   */
  readonly provider?: OrgAdminProviderProps;
}

/** Two organizations and their members. */
export class BasicStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: BasicStackProps = {}) {
    super(scope, id);
    if (props.stateFile !== undefined) new LocalBackend(this, { path: props.stateFile });
    new OrgAdminProvider(this, 'orgadmin', props.provider);

    // People are named by email; the ids are looked up at plan time.
    const alice = User.fromEmail(this, 'alice', 'alice@example.com');
    const bob = User.fromEmail(this, 'bob', 'bob@example.com');
    const carol = User.fromEmail(this, 'carol', 'carol@example.com');

    // Additive: this stack adds alice and bob and leaves anyone else who joins alone.
    const acme = new Organization(this, 'acme', {
      name: 'acme',
      displayName: 'ACME Corporation',
      url: 'https://acme.example.com',
      domains: ['acme.example.com'],
      attributes: { tier: ['gold'] },
    });
    acme.addMember(alice);
    acme.addMember(bob);

    // Authoritative: exactly bob and carol; anyone else added by hand is removed on apply.
    const globex = new Organization(this, 'globex', {
      name: 'globex',
      displayName: 'Globex',
      members: { authoritative: [bob, carol] },
    });

    new TerraformOutput(this, 'acme_id', { value: acme.organizationId });
    new TerraformOutput(this, 'globex_id', { value: globex.organizationId });
  }
}
