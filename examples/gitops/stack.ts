/**
 * The GitOps example: organizations, their members and the members' roles declared as data (`organizations.json`,
 * changed through reviewed pull requests), Terraform state in PostgreSQL so that every pipeline
 * run shares it and runs are serialized by the backend's lock.
 */
import { PgBackend, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { OrgAdminProvider, Organization, User } from '../../src/constructs';

/** One organization in `organizations.json`. */
export interface OrganizationDeclaration {
  /** Unique name in the realm; also the organization's construct id, so keep it stable. */
  readonly name: string;
  /** Human-friendly name. */
  readonly displayName?: string;
  /** Home page, an absolute http(s) URL. */
  readonly url?: string;
  /** Lowercase DNS names of the organization. */
  readonly domains?: string[];
  /** Attributes, each key holding a list of strings. */
  readonly attributes?: Record<string, string[]>;
  /**
   * Members by email: `authoritative` when this file is the only place that manages the
   * organization's members, `additive` when others (the admin portal) add members too.
   */
  readonly members?: { readonly authoritative: string[] } | { readonly additive: string[] };
  /**
   * Roles of members, by email: every role each one holds in the organization (default roles such
   * as `manage-members`, or roles named in `customRoles`). Members not listed here keep whatever
   * roles they have.
   */
  readonly memberRoles?: Record<string, string[]>;
  /** The organization's own roles, by name, with their descriptions. */
  readonly customRoles?: Record<string, string>;
}

/** The content of `organizations.json`. */
export interface GitopsConfig {
  /** Every organization this stack manages. */
  readonly organizations: readonly OrganizationDeclaration[];
}

/** Props of {@link GitopsStack}. */
export interface GitopsStackProps {
  /** The declarations. */
  readonly config: GitopsConfig;
  /**
   * PostgreSQL connection string of the state backend, without the password (give that to
   * Terraform as `PGPASSWORD`), e.g. `postgres://terraform@db.internal/terraform_state`.
   */
  readonly stateConnectionString: string;
  /**
   * PostgreSQL schema holding the state.
   * @default `terraform_remote_state`
   */
  readonly stateSchema?: string;
}

/** A construct id for a user, from an email (`alice@example.com` → `alice_at_example.com`). */
function userConstructId(email: string): string {
  return email.replace('@', '_at_').replace(/[^A-Za-z0-9_.-]/g, '-');
}

/** Every declared organization with its members, state in PostgreSQL. */
export class GitopsStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: GitopsStackProps) {
    super(scope, id);
    new PgBackend(this, { connStr: props.stateConnectionString, schemaName: props.stateSchema });
    new OrgAdminProvider(this, 'orgadmin');

    // One look-up per person, however many organizations they are in.
    const users = new Map<string, User>();
    const user = (email: string): User => {
      let found = users.get(email);
      if (found === undefined) {
        found = User.fromEmail(this, userConstructId(email), email);
        users.set(email, found);
      }
      return found;
    };

    for (const declaration of props.config.organizations) {
      const members = declaration.members;
      const organization = new Organization(this, declaration.name, {
        name: declaration.name,
        displayName: declaration.displayName,
        url: declaration.url,
        domains: declaration.domains,
        attributes: declaration.attributes,
        members: members !== undefined && 'authoritative' in members ? { authoritative: members.authoritative.map(user) } : undefined,
      });
      for (const [roleName, description] of Object.entries(declaration.customRoles ?? {})) organization.addRole(roleName, { description });
      const roles = declaration.memberRoles ?? {};
      if (members !== undefined && 'additive' in members) {
        for (const email of members.additive) organization.addMember(user(email), roles[email] ? { roles: roles[email] } : undefined);
      } else {
        // Members of the authoritative set (or of an organization whose members are not declared).
        for (const [email, names] of Object.entries(roles)) organization.grantRoles(user(email), names);
      }
    }
  }
}
