/**
 * The demo's data: realm `demo`, an API key `demo` with every permission, the users alice, bob
 * and carol, and the realm administrator `admin` who signs in to the dashboard. Idempotent, so
 * `npm start` can run again and again on the same data file: the key's secret and the
 * administrator's password are kept in a 0600 file next to the data, because the service stores
 * only their hashes.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSIONS, type Member } from '../../api';
import type { Admin } from '../../service/admin';

/** The demo realm's name. */
export const DEMO_REALM = 'demo';
/** The demo API key's name. */
export const DEMO_KEY_NAME = 'demo';
/** File name, inside the demo directory, of the saved demo credentials. */
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

/** Username of the demo realm's administrator (dashboard sign-in). */
export const DEMO_ADMIN_USERNAME = 'admin';

/** The demo users (username, email, names). */
export const DEMO_USERS: ReadonlyArray<{ username: string; email: string; firstName: string; lastName: string }> = [
  { username: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Anders' },
  { username: 'bob', email: 'bob@example.com', firstName: 'Bob', lastName: 'Brandt' },
  { username: 'carol', email: 'carol@example.com', firstName: 'Carol', lastName: 'Castro' },
];

/** What the demo set up. */
export interface DemoBootstrap {
  /** The realm name (`demo`). */
  realm: string;
  /** Client ID of the demo API key. */
  clientId: string;
  /** Its secret (also saved in {@link DEMO_CREDENTIALS_FILE}). */
  clientSecret: string;
  /** alice, bob and carol, in that order. */
  users: Member[];
  /** The realm administrator's username ({@link DEMO_ADMIN_USERNAME}). */
  adminUsername: string;
  /** Its password (also saved in {@link DEMO_CREDENTIALS_FILE}). */
  adminPassword: string;
}

/** The saved credentials file's content. */
interface SavedCredentials {
  realm: string;
  clientId: string;
  clientSecret: string;
  /** Absent in files written before the dashboard existed: a password is then set and saved. */
  adminUsername?: string;
  adminPassword?: string;
}

/** Reads the saved credentials; a missing or unreadable file means "none" (the key is recreated). */
function readSavedCredentials(file: string): SavedCredentials | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedCredentials>;
    if (typeof value.clientId === 'string' && typeof value.clientSecret === 'string' && value.realm === DEMO_REALM) {
      const admin =
        value.adminUsername === DEMO_ADMIN_USERNAME && typeof value.adminPassword === 'string' && value.adminPassword !== ''
          ? { adminUsername: value.adminUsername, adminPassword: value.adminPassword }
          : {};
      return { realm: value.realm, clientId: value.clientId, clientSecret: value.clientSecret, ...admin };
    }
  } catch {
    // A damaged file is treated like a missing one: the key is revoked and made again.
  }
  return undefined;
}

/**
 * Writes the credentials readable by the owner only. The file is written under a temporary name
 * (created 0600, so the secret is never readable by others, not even briefly) and renamed into
 * place, so a crash never leaves half a file.
 */
function writeSavedCredentials(file: string, credentials: SavedCredentials): void {
  const temporary = `${file}.${process.pid}.tmp`;
  // A leftover of a crashed run would keep its own mode (`mode` applies only to new files), so it
  // goes first; `wx` then refuses to write into a file someone else put there in the meantime.
  rmSync(temporary, { force: true });
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/**
 * Sets up the demo data through `admin`, reusing what exists: the realm, the key (when `dir` holds
 * its saved secret and the key is still active with every permission; otherwise every active
 * `demo` key is revoked and a new one is made and saved), and the users.
 *
 * @param dir directory of the credentials file (created when missing).
 */
export async function bootstrapDemo(admin: Admin, dir: string): Promise<DemoBootstrap> {
  mkdirSync(dir, { recursive: true });
  if (!(await admin.getRealm(DEMO_REALM))) {
    await admin.createRealm(DEMO_REALM, {});
  }

  const credentialsFile = join(dir, DEMO_CREDENTIALS_FILE);
  const saved = readSavedCredentials(credentialsFile);
  const activeDemoKeys = (await admin.listApiKeys(DEMO_REALM)).filter(
    (key) => key.name === DEMO_KEY_NAME && key.revokedTimestamp === null,
  );
  const reusable =
    saved !== undefined &&
    activeDemoKeys.some((key) => key.clientId === saved.clientId && PERMISSIONS.every((p) => key.permissions.includes(p)));

  let credentials: SavedCredentials;
  let changed = false;
  if (reusable) {
    credentials = saved;
  } else {
    // Without its secret a key is useless to the demo; revoke it so the name is free again.
    for (const key of activeDemoKeys) await admin.revokeApiKey(key.clientId);
    const key = await admin.createApiKey(DEMO_REALM, { name: DEMO_KEY_NAME, permissions: [...PERMISSIONS] });
    credentials = { realm: DEMO_REALM, clientId: key.clientId, clientSecret: key.clientSecret };
    changed = true;
  }

  // The realm administrator: made once; its password comes from the saved file, or is set anew
  // (and saved) when the file does not have it.
  let adminPassword = saved?.adminPassword;
  const existingAdmin = await admin.getUserInfo(DEMO_REALM, DEMO_ADMIN_USERNAME);
  if (!existingAdmin) {
    adminPassword = randomBytes(12).toString('base64url');
    await admin.createUser(DEMO_REALM, { username: DEMO_ADMIN_USERNAME, firstName: 'Demo', lastName: 'Administrator', password: adminPassword, realmAdmin: true });
  } else {
    if (adminPassword === undefined || !existingAdmin.hasPassword) {
      adminPassword = randomBytes(12).toString('base64url');
      await admin.setPassword(DEMO_REALM, DEMO_ADMIN_USERNAME, adminPassword);
    }
    if (!existingAdmin.realmAdmin) await admin.setRealmAdmin(DEMO_REALM, DEMO_ADMIN_USERNAME, true);
    if (!existingAdmin.enabled) await admin.setUserEnabled(DEMO_REALM, existingAdmin.id, true);
  }
  if (adminPassword !== saved?.adminPassword) changed = true;
  credentials = { ...credentials, adminUsername: DEMO_ADMIN_USERNAME, adminPassword };
  if (changed) writeSavedCredentials(credentialsFile, credentials);

  const users: Member[] = [];
  for (const user of DEMO_USERS) {
    const existing = await admin.findUserByUsername(DEMO_REALM, user.username);
    users.push(existing ?? (await admin.createUser(DEMO_REALM, user)));
  }

  return {
    realm: DEMO_REALM,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    users,
    adminUsername: DEMO_ADMIN_USERNAME,
    adminPassword: adminPassword!,
  };
}
