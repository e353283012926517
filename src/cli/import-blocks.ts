/**
 * The text of `orgadmin terraform import-blocks`: one Terraform `import {}` block for every
 * organization of a realm and for its members (one `orgadmin_membership` per member, or one
 * `orgadmin_organization_members` per organization), so that `terraform plan
 * -generate-config-out=FILE` writes the configuration of a whole realm and the plan shows only
 * imports. Import ids are made by the provider's own rule (`formatImportId`, by each resource's
 * import form) and always name the realm, so they work whatever realm the provider defaults to.
 */
import type { Member, Organization } from '../api';
import { formatImportId, type ImportIdForm } from '../provider/import-id';
import { MEMBERSHIP_IMPORT_ID, MEMBERSHIP_RESOURCE_TYPE } from '../provider/resources/membership';
import { ORGANIZATION_IMPORT_ID, ORGANIZATION_RESOURCE_TYPE } from '../provider/resources/organization';
import { ORGANIZATION_MEMBERS_IMPORT_ID, ORGANIZATION_MEMBERS_RESOURCE_TYPE } from '../provider/resources/organization-members';

/** How members are adopted. */
export type MemberStyle = 'membership' | 'set';

/** Every member style, for flags and messages. */
export const MEMBER_STYLES: readonly MemberStyle[] = ['membership', 'set'];

/** One organization of the realm and its members (its default admin user left out). */
export interface AdoptedOrganization {
  readonly organization: Organization;
  readonly members: readonly Member[];
}

/** What the blocks were made of. */
export interface ImportBlocks {
  /** The HCL text. */
  readonly text: string;
  /** How many blocks of each resource type. */
  readonly counts: { readonly [resourceType: string]: number };
}

/** Gives out Terraform resource names: HCL identifiers, unique per resource type. */
class ResourceNames {
  private readonly taken = new Set<string>();

  /** A unique name made from `parts` (lowercase; anything but letters, digits, `_` and `-` becomes `_`). */
  name(...parts: string[]): string {
    let base = parts
      .map((part) => part.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, ''))
      .filter((part) => part !== '')
      .join('_');
    if (!/^[a-z_]/.test(base)) base = `r_${base}`;
    let candidate = base;
    for (let n = 2; this.taken.has(candidate); n++) candidate = `${base}_${n}`;
    this.taken.add(candidate);
    return candidate;
  }
}

/** A string literal of HCL: JSON's escapes, with template sequences (`${`, `%{`) escaped too. */
function hclString(value: string): string {
  return JSON.stringify(value).replace(/\$\{/g, '$${').replace(/%\{/g, '%%{');
}

function block(resourceType: string, name: string, form: ImportIdForm, ids: readonly string[], realm: string): string {
  return `import {\n  to = ${resourceType}.${name}\n  id = ${hclString(formatImportId(form, ids, realm))}\n}\n`;
}

/**
 * The import blocks of a realm's organizations and members, in the order of `organizations`
 * (each organization followed by its members). Resource names come from organization names and
 * usernames, made unique.
 */
export function renderImportBlocks(realm: string, organizations: readonly AdoptedOrganization[], style: MemberStyle): ImportBlocks {
  const orgNames = new ResourceNames();
  const memberNames = new ResourceNames();
  const counts: Record<string, number> = { [ORGANIZATION_RESOURCE_TYPE]: 0, [style === 'set' ? ORGANIZATION_MEMBERS_RESOURCE_TYPE : MEMBERSHIP_RESOURCE_TYPE]: 0 };
  const blocks: string[] = [];
  for (const { organization, members } of organizations) {
    const orgName = orgNames.name(organization.name);
    blocks.push(block(ORGANIZATION_RESOURCE_TYPE, orgName, ORGANIZATION_IMPORT_ID, [organization.id], realm));
    counts[ORGANIZATION_RESOURCE_TYPE]! += 1;
    if (style === 'set') {
      blocks.push(block(ORGANIZATION_MEMBERS_RESOURCE_TYPE, orgName, ORGANIZATION_MEMBERS_IMPORT_ID, [organization.id], realm));
      counts[ORGANIZATION_MEMBERS_RESOURCE_TYPE]! += 1;
      continue;
    }
    for (const member of members) {
      blocks.push(block(MEMBERSHIP_RESOURCE_TYPE, memberNames.name(orgName, member.username), MEMBERSHIP_IMPORT_ID, [organization.id, member.id], realm));
      counts[MEMBERSHIP_RESOURCE_TYPE]! += 1;
    }
  }
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const header = [
    `# Import blocks for realm ${realm}, written by "orgadmin terraform import-blocks": ${total} resources`,
    `# (${Object.entries(counts).map(([type, n]) => `${n} ${type}`).join(', ')}).`,
    '# Next: terraform plan -generate-config-out=generated.tf  (writes the resource blocks),',
    '# review generated.tf, then terraform apply (imports only; nothing changes in the service).',
    '',
  ].join('\n');
  return { text: `${header}\n${blocks.join('\n')}`, counts };
}
