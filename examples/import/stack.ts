/**
 * The import example: an organization that was created by hand (the admin portal, a script) is
 * brought under management together with its members. Terraform import blocks adopt the existing
 * organization and its member set on the first apply, which changes nothing on the service; the
 * plan after it is empty.
 */
import { LocalBackend, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { OrgAdminProvider, Organization, User } from '../../src/constructs';

/** Props of {@link ImportStack}. */
export interface ImportStackProps {
  /** Id of the existing organization (`orgadmin` shows it; so does the service's list). */
  readonly organizationId: string;
  /**
   * Where Terraform keeps the state (a local file).
   * @default `terraform.<stack id>.tfstate` in the synthesized stack's directory
   */
  readonly stateFile?: string;
}

/**
 * The existing organization `legacy`, written down as it is: its name, display name and its two
 * members. Whatever the configuration says differently becomes a change in the first plan, so
 * describe what exists first, adopt it, and change it in a later commit.
 */
export class ImportStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: ImportStackProps) {
    super(scope, id);
    if (props.stateFile !== undefined) new LocalBackend(this, { path: props.stateFile });
    new OrgAdminProvider(this, 'orgadmin');

    const alice = User.fromEmail(this, 'alice', 'alice@example.com');
    const bob = User.fromEmail(this, 'bob', 'bob@example.com');

    new Organization(this, 'legacy', {
      name: 'legacy',
      displayName: 'Legacy Ltd',
      // `existingOrganizationId` writes the import blocks (cdktf `importFrom`) for the
      // organization and its authoritative member set.
      existingOrganizationId: props.organizationId,
      members: { authoritative: [alice, bob] },
    });
  }
}
