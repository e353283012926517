/**
 * A whole realm as one file (`orgadmin realms export|import`): what moving a realm to another
 * instance needs so that the new instance answers every read as the old one did.
 *
 * Carried: the realm's settings (enabled, token lifetime, default admin users, rate limit, the
 * organizations claim, event retention), its
 * users with their ids, profile, realm-administrator flag and creation times (organizations'
 * default admin users included, with their ids), password hashes (slow salted scrypt hashes, never
 * a password: users sign in with the same password), registered public OpenID Connect clients,
 * organizations with their ids and fields, memberships in their order, and the organizations' roles
 * with their ids and descriptions (the default roles too) and their grants in the order they were
 * made.
 *
 * Not carried: the realm's signing keys (a private key never leaves the service: the new instance
 * makes its own, so tokens of the old one are not accepted there), API keys and their service
 * accounts (a key's secret is never stored, only a hash under the old instance's server-side key:
 * create new keys), authorization codes, revocations and sessions (short-lived), and what holds a
 * secret sealed under the old instance's own key: identity providers and their mappers, webhooks,
 * and a confidential client's secret (the client arrives, its secret does not verify: register it
 * again). Verified domains are not carried either (they are verified again by DNS), nor the audit
 * log.
 */
import type { Organization, OrganizationRepresentation } from '../../api';
import { DEFAULT_ORGANIZATION_ROLE_NAMES, organizationToWire } from '../../api';
import type { Admin } from '../admin';
import type { RealmRateLimit } from '../rate-limit';
import type { OidcClientRecord, Store, UserRecord } from '../store/store';
import { allMembers, allOrganizations } from './org-transfer';

/** The `format` of a realm file. */
export const REALM_FILE_FORMAT = 'orgadmin-realm';
/** The version of the realm file this build writes and reads. */
export const REALM_FILE_VERSION = 1;

/** A user as a realm file carries it. */
export type ExportedUser = Omit<UserRecord, 'realm'>;

/** A realm file. */
export interface RealmFile {
  format: typeof REALM_FILE_FORMAT;
  version: typeof REALM_FILE_VERSION;
  exportedAt: string;
  realm: {
    name: string;
    enabled: boolean;
    tokenLifetimeSeconds: number;
    createAdminUser: boolean;
    rateLimit: RealmRateLimit;
    /** Absent in files of builds before it was carried: off. */
    organizationsClaim?: boolean;
    /** Days the audit log keeps events, null for ever; absent in files of builds before it was carried: for ever. */
    eventRetentionDays?: number | null;
  };
  users: ExportedUser[];
  oidcClients: Array<Omit<OidcClientRecord, 'realm'>>;
  /** Organizations in name order, each with its members' ids in membership order and its roles. */
  organizations: Array<OrganizationRepresentation & { members: string[]; roles?: ExportedRole[] }>;
}

/** A role as a realm file carries it: with its id, and the users holding it in grant order. */
export interface ExportedRole {
  id: string;
  name: string;
  description: string | null;
  users: string[];
}

/** Users per page read (the store caps nothing here: the export reads every user). */
const USERS_PAGE = 1000;

/** Every user of `realm` but service accounts, in username order. */
async function allUsers(store: Store, realm: string): Promise<UserRecord[]> {
  const all: UserRecord[] = [];
  for (;;) {
    const page = await store.findUsers(realm, { first: all.length, max: USERS_PAGE });
    all.push(...page);
    if (page.length < USERS_PAGE) return all;
  }
}

/** Reads realm `name` into a {@link RealmFile}; undefined when there is no such realm. */
export async function exportRealm(store: Store, name: string, now: () => number = Date.now): Promise<RealmFile | undefined> {
  const realm = await store.getRealmSettings(name);
  if (realm === undefined) return undefined;
  const users = (await allUsers(store, name)).filter((user) => user.kind !== 'service-account').map(({ realm: _realm, ...user }) => user);
  const oidcClients = (await store.listOidcClients(name)).map(({ realm: _realm, ...client }) => client);
  const organizations = [];
  for (const org of await allOrganizations(store, name)) {
    const members = (await allMembers(store, name, org.id, false)).map((user) => user.id);
    const roles: ExportedRole[] = [];
    for (const role of (await store.listRoles(name, org.id)) ?? []) {
      const users = ((await store.listRoleUsers(name, org.id, role.name, {})) ?? []).map((user) => user.id);
      roles.push({ id: role.id, name: role.name, description: role.description, users });
    }
    organizations.push({ ...organizationToWire(org), members, roles });
  }
  return {
    format: REALM_FILE_FORMAT,
    version: REALM_FILE_VERSION,
    exportedAt: new Date(now()).toISOString(),
    realm: {
      name,
      enabled: realm.enabled,
      tokenLifetimeSeconds: realm.tokenLifetimeSeconds,
      createAdminUser: realm.createAdminUser,
      rateLimit: realm.rateLimit,
      organizationsClaim: realm.organizationsClaim,
      eventRetentionDays: await store.events.retentionDays(name),
    },
    users,
    oidcClients,
    organizations,
  };
}

/** Raised when a realm file cannot be imported; nothing was changed. */
export class RealmFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RealmFileError';
  }
}

/** Checks that `value` is a realm file this build reads. */
export function asRealmFile(value: unknown): RealmFile {
  const file = value as Partial<RealmFile> | null;
  if (typeof file !== 'object' || file === null || file.format !== REALM_FILE_FORMAT) {
    throw new RealmFileError(`it is not a realm file written by "orgadmin realms export" (no "format": "${REALM_FILE_FORMAT}").`);
  }
  if (file.version !== REALM_FILE_VERSION) throw new RealmFileError(`it is a realm file of version ${String(file.version)}; this build reads version ${REALM_FILE_VERSION}.`);
  if (typeof file.realm?.name !== 'string' || !Array.isArray(file.users) || !Array.isArray(file.organizations) || !Array.isArray(file.oidcClients)) {
    throw new RealmFileError('its realm, users, oidcClients or organizations are missing.');
  }
  return file as RealmFile;
}

/**
 * Creates the realm of `file` (named `as`, default the file's name), which must not exist yet, with
 * everything the file carries (see the module comment). Memberships keep their order.
 */
export async function importRealm(admin: Admin, store: Store, file: RealmFile, as: string = file.realm.name): Promise<{ users: number; organizations: number; memberships: number }> {
  if ((await store.getRealmSettings(as)) !== undefined) throw new RealmFileError(`realm ${as} already exists; import into a realm that does not.`);
  const { realm } = file;
  await admin.createRealm(as, { tokenLifetimeSeconds: realm.tokenLifetimeSeconds, createAdminUser: realm.createAdminUser });
  await admin.updateRealm(as, {
    enabled: realm.enabled,
    rateLimit: realm.rateLimit,
    organizationsClaim: realm.organizationsClaim ?? false,
    eventRetentionDays: realm.eventRetentionDays ?? null,
  });
  const adminUsers = new Map<string, UserRecord>();
  for (const user of file.users) {
    const record: UserRecord = { ...user, realm: as };
    if (user.kind === 'org-admin' && user.adminOfOrganization !== null) adminUsers.set(user.adminOfOrganization, record);
    else await store.createUser(record);
  }
  for (const client of file.oidcClients) await store.createOidcClient({ ...client, realm: as });
  let memberships = 0;
  let order = Date.now();
  for (const org of file.organizations) {
    const { members, roles, ...wire } = org;
    const record: Organization = { ...wire, realm: as, displayName: wire.displayName ?? null, url: wire.url ?? null };
    const adminUser = adminUsers.get(org.id);
    await store.createOrganization(record, adminUser, adminUser?.createdTimestamp ?? order);
    for (const userId of members) {
      // The default admin user is made a member by createOrganization; the others in their order.
      if (userId === adminUser?.id) continue;
      order += 1;
      if (await store.addMember(as, org.id, userId, order)) memberships += 1;
    }
    // The roles with their ids: createOrganization made the default roles (and granted them to the
    // default admin user) with new ids, so they are replaced by the file's, then every grant is
    // made again in its order.
    if (roles === undefined) continue;
    await store.deleteRoles(as, org.id, DEFAULT_ORGANIZATION_ROLE_NAMES);
    await store.createRoles(as, org.id, roles.map(({ id, name, description }) => ({ id, name, description })), order);
    const grants = roles.flatMap((role) => role.users.map((userId, index) => ({ role: role.name, userId, index })));
    for (const grant of grants.sort((a, b) => a.index - b.index)) {
      order += 1;
      await store.changeMemberRoles(as, org.id, grant.userId, [grant.role], 'grant', order);
    }
  }
  return { users: file.users.length, organizations: file.organizations.length, memberships };
}
