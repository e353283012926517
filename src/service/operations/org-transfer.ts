/**
 * The hosted service's bulk organization transfer (`GET /orgs/export`, `POST /orgs/import`; wire
 * shapes in src/api/org-transfer.ts), over the {@link Store}.
 *
 * Export: every organization of the realm (or those of `orgIds`), in name order, each with its
 * members when asked (by user id and email, with the names of the roles each holds; the
 * organizations' default admin users are left out, since an import creates its own), its roles
 * (name and description) unless `includeRoles=false`, and an empty `identityProviders` list (this
 * service has no identity providers yet).
 *
 * Import: the whole body is checked first, with the rules of a create (name, url, domains,
 * reserved ids), and a body with any bad organization, or naming one organization twice, changes
 * nothing (400). Then organization by organization: one that exists (same id, or same name when
 * the import gives no id) is updated, or left alone with `skipExisting`; another is created with
 * its id, and with a default admin user when the realm asks for one. Its roles that the
 * organization lacks are created (one that exists keeps its description). With `importMembers`,
 * members are added by user id, else by email, when such a user exists in the realm, and granted
 * their roles; a member that is not a user here, a role the organization does not have, or an
 * organization whose name belongs to another organization, is reported in `errors` and the rest
 * goes on. Each step is one atomic store write, and a repeated import
 * changes nothing more, so an import cut short is completed by running it again.
 */
import type { ChangeOrigin } from '../events/event';
import { randomUUID } from 'node:crypto';
import {
  MEMBERS_PAGE,
  ORGS_EXPORT_VERSION,
  ORGS_PAGE,
  organizationToWire,
  type ExportedMember,
  type ExportedOrganization,
  type Organization,
  type OrganizationsExport,
  type OrganizationsImport,
  type OrganizationsImportResult,
  roleNameProblem,
} from '../../api';
import { ServiceError } from '../errors';
import { defaultAdminUser, readOrganizationInput, reservedIdProblem } from '../routes/organizations';
import { StoreConflictError, type RealmSettings, type Store, type UserRecord } from '../store/store';

/** What an export includes (the query of `GET /orgs/export`). */
export interface ExportOptions {
  /** The organizations' members (default false). */
  includeMembers?: boolean;
  /** The organizations' roles (default true). */
  includeRoles?: boolean;
  /** The organizations' identity providers (default true). */
  includeIdps?: boolean;
  /** Only these organizations (default all); ids of no organization are left out. */
  orgIds?: readonly string[];
}

/** What an import does (the query of `POST /orgs/import`). */
export interface ImportOptions {
  /** Leave existing organizations as they are instead of updating them (default false). */
  skipExisting?: boolean;
  /** Add the listed members (default false). */
  importMembers?: boolean;
  /** The clock (ms since the epoch) of created rows. */
  now?: () => number;
  /** Who imports and from where: written into the events of the changes (default: nobody known). */
  origin?: ChangeOrigin;
}

/** Every organization of `realm`, in name order, read page by page. */
export async function allOrganizations(store: Store, realm: string): Promise<Organization[]> {
  const all: Organization[] = [];
  for (;;) {
    const page = await store.listOrganizations(realm, { first: all.length, max: ORGS_PAGE.cap });
    all.push(...page);
    if (page.length < ORGS_PAGE.cap) return all;
  }
}

/** Every member of an organization, in membership order, read page by page. */
export async function allMembers(store: Store, realm: string, orgId: string, excludeAdminAccounts: boolean): Promise<UserRecord[]> {
  const all: UserRecord[] = [];
  for (;;) {
    const page = await store.listMembers(realm, orgId, { first: all.length, max: MEMBERS_PAGE.cap, excludeAdminAccounts });
    all.push(...page);
    if (page.length < MEMBERS_PAGE.cap) return all;
  }
}

/** The export of `realm` (see the module comment). */
export async function exportOrganizations(store: Store, realm: RealmSettings, options: ExportOptions = {}, now: () => number = Date.now): Promise<OrganizationsExport> {
  const wanted = options.orgIds === undefined || options.orgIds.length === 0 ? undefined : new Set(options.orgIds);
  const organizations: ExportedOrganization[] = [];
  for (const org of await allOrganizations(store, realm.name)) {
    if (wanted !== undefined && !wanted.has(org.id)) continue;
    const exported: ExportedOrganization = { ...organizationToWire(org) };
    const includeRoles = options.includeRoles !== false;
    if (includeRoles) {
      exported.roles = ((await store.listRoles(realm.name, org.id)) ?? []).map((role) => ({ name: role.name, ...(role.description === null ? {} : { description: role.description }) }));
    }
    if (options.includeIdps !== false) exported.identityProviders = [];
    if (options.includeMembers === true) {
      exported.members = [];
      for (const user of await allMembers(store, realm.name, org.id, true)) {
        const roles = includeRoles ? ((await store.listMemberRoles(realm.name, org.id, user.id)) ?? []).map((role) => role.name) : undefined;
        exported.members.push({ userId: user.id, ...(user.email === null ? {} : { email: user.email }), ...(roles === undefined ? {} : { roles }) });
      }
    }
    organizations.push(exported);
  }
  return {
    version: ORGS_EXPORT_VERSION,
    realm: realm.name,
    exportedAt: new Date(now()).toISOString(),
    organizations,
    config: { createAdminUser: realm.createAdminUser },
  };
}

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);

/** An organization of an import with its checked fields. */
interface CheckedOrganization {
  id: string | undefined;
  fields: ReturnType<typeof readOrganizationInput>;
  roles: Array<{ name: string; description: string | null }>;
  members: ExportedMember[];
}

/** Checks every organization of `body` before anything changes (see the module comment). */
function checkImport(realm: string, body: OrganizationsImport): CheckedOrganization[] {
  const names = new Set<string>();
  const ids = new Set<string>();
  return body.organizations.map((org, index) => {
    const where = `organizations[${index}] ("${org.name}")`;
    let fields;
    try {
      fields = readOrganizationInput(org);
    } catch (error) {
      if (error instanceof ServiceError) throw invalidBody(`${where}: ${error.description}`);
      throw error;
    }
    if (org.id !== undefined) {
      const reserved = reservedIdProblem(realm, org.id);
      if (reserved) throw invalidBody(`${where}: ${reserved}`);
      if (ids.has(org.id)) throw invalidBody(`${where}: id "${org.id}" appears twice in the import.`);
      ids.add(org.id);
    }
    if (names.has(org.name)) throw invalidBody(`${where}: the name appears twice in the import.`);
    names.add(org.name);
    for (const member of org.members ?? []) {
      if (member.userId === undefined && member.email === undefined) throw invalidBody(`${where}: every member needs a userId or an email.`);
      for (const role of member.roles ?? []) {
        const problem = roleNameProblem(role);
        if (problem) throw invalidBody(`${where}: member role "${role}" ${problem}.`);
      }
    }
    const roles = (org.roles ?? []).map((role) => {
      const problem = roleNameProblem(role.name);
      if (problem) throw invalidBody(`${where}: role "${role.name}" ${problem}.`);
      return { name: role.name, description: role.description ?? null };
    });
    return { id: org.id, fields, roles, members: org.members ?? [] };
  });
}

/** The organization of `realm` an imported one stands for: by id, else (without an id) by name. */
async function existingOrganization(store: Store, realm: string, org: CheckedOrganization): Promise<Organization | undefined> {
  if (org.id !== undefined) return store.getOrganization(realm, org.id);
  const matches = await store.listOrganizations(realm, { search: org.fields.name, max: ORGS_PAGE.cap });
  return matches.find((candidate) => candidate.name === org.fields.name);
}

/** The user an imported member names: by id, else by email (exact, case-insensitive). */
async function memberUser(store: Store, realm: string, member: ExportedMember): Promise<UserRecord | undefined> {
  if (member.userId !== undefined) {
    const user = await store.getUser(realm, member.userId);
    if (user !== undefined || member.email === undefined) return user;
  }
  const [user] = await store.findUsers(realm, { email: member.email, exact: true, max: 1 });
  return user;
}

/** Imports `body` into `realm` (see the module comment). */
export async function importOrganizations(store: Store, realm: RealmSettings, body: OrganizationsImport, options: ImportOptions = {}): Promise<OrganizationsImportResult> {
  const checked = checkImport(realm.name, body);
  const now = options.now ?? Date.now;
  const result: OrganizationsImportResult = { imported: 0, updated: 0, skipped: 0, errors: [] };
  for (const org of checked) {
    const name = org.fields.name;
    let orgId: string;
    try {
      const existing = await existingOrganization(store, realm.name, org);
      if (existing !== undefined && options.skipExisting) {
        result.skipped += 1;
        continue;
      }
      if (existing !== undefined) {
        await store.updateOrganization(realm.name, existing.id, org.fields, options.origin);
        orgId = existing.id;
        result.updated += 1;
      } else {
        orgId = org.id ?? randomUUID();
        const created = now();
        const record: Organization = { id: orgId, realm: realm.name, ...org.fields, domains: org.fields.domains ?? [] };
        await store.createOrganization(record, defaultAdminUser(realm, orgId, created), created, options.origin);
        result.imported += 1;
      }
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      const what =
        error.what === 'organization name'
          ? `the name belongs to another organization of realm ${realm.name}`
          : error.what === 'username'
            ? `the id differs only in case from another organization's id of realm ${realm.name} (their default admin users would share a username)`
            : `the id belongs to another organization of realm ${realm.name}`;
      result.errors.push({ organizationName: name, error: `Not imported: ${what}.` });
      continue;
    }
    if (org.roles.length > 0) {
      await store.createRoles(realm.name, orgId, org.roles.map((role) => ({ id: randomUUID(), ...role })), now(), options.origin);
    }
    if (!options.importMembers) continue;
    for (const member of org.members) {
      const user = await memberUser(store, realm.name, member);
      if (user === undefined || !(await store.addMember(realm.name, orgId, user.id, now(), options.origin))) {
        result.errors.push({ organizationName: name, error: `Member ${member.userId ?? member.email} is not a user of realm ${realm.name}; not added.` });
        continue;
      }
      if (member.roles === undefined || member.roles.length === 0) continue;
      const granted = await store.changeMemberRoles(realm.name, orgId, user.id, member.roles, 'grant', now(), options.origin);
      const missing = granted.kind === 'done' ? granted.changes.flatMap((change) => (change.outcome === 'no-role' ? [change.name] : [])) : member.roles;
      if (missing.length > 0) {
        result.errors.push({ organizationName: name, error: `Member ${member.userId ?? member.email}: no role ${missing.map((role) => `"${role}"`).join(', ')} in this organization; not granted.` });
      }
    }
  }
  return result;
}
