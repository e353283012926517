/**
 * Test helper for the end-to-end tests: one real service (port 0, SQLite in a temp dir), a realm
 * with an API key and users, an SDK client for changes "behind Terraform's back", and the provider
 * installed into a temporary mirror. Each test file makes one and reuses it across its steps.
 */
import type { Member } from '../../../src/api';
import { isCompatMode, type CompatMode } from '../../../src/service/compat';
import { ClientCredentialsTokenSource, OrgAdminClient } from '../../../src/client';
import { createTestRealm, startTestService, type TestService } from '../../helpers/service';
import { ensureProviderBundle } from './bundle';
import { createProviderMirror, TerraformWorkspace, type ProviderMirror } from './terraform';

/** Everything an end-to-end test file needs. */
export interface E2EFixture {
  svc: TestService;
  /** The service's behaviour: `hosted` when `ORGADMIN_TEST_COMPAT=hosted` (the second jest project). */
  compat: CompatMode;
  mirror: ProviderMirror;
  realm: string;
  clientId: string;
  clientSecret: string;
  /** Users created in the realm, by username. */
  users: Record<string, Member>;
  /** An SDK client with every permission, for changes made outside Terraform. */
  client: OrgAdminClient;
  /** The `ORGADMIN_*` variables that point the provider at the service with this fixture's key. */
  providerEnv: Record<string, string>;
  /** A new terraform working directory using the mirror and {@link providerEnv}. */
  workspace(env?: Record<string, string | undefined>): Promise<TerraformWorkspace>;
  /** Stops the service, closes the client, removes the mirror and every workspace. */
  close(): Promise<void>;
}

/** Options of {@link startE2E}. */
export interface E2EOptions {
  /** Usernames to create (emails are `<username>@example.com`). */
  usernames?: readonly string[];
  realm?: string;
  rateLimit?: { requests: number; windowSeconds: number };
  /** The DNS server the service looks domain verification records up at (`HOST:PORT`). */
  dnsServer?: string;
}

/** Starts the service, creates the realm, key and users, and installs the provider. */
export async function startE2E(options: E2EOptions = {}): Promise<E2EFixture> {
  ensureProviderBundle();
  const compat = testCompatMode();
  const svc = await startTestService({ rateLimit: options.rateLimit, app: { compat, dnsServer: options.dnsServer } });
  const cleanups: Array<() => Promise<void>> = [() => svc.close()];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const { realm, clientId, clientSecret } = await createTestRealm(svc, options.realm ?? 'acme');
    const users: Record<string, Member> = {};
    for (const username of options.usernames ?? []) {
      users[username] = await svc.admin.createUser(realm, { username, email: `${username}@example.com` });
    }
    const mirror = await createProviderMirror();
    cleanups.push(() => mirror.cleanup());
    const client = new OrgAdminClient({
      baseUrl: svc.baseUrl,
      realm,
      tokenSource: new ClientCredentialsTokenSource({ baseUrl: svc.baseUrl, clientId, clientSecret }),
      // The tests' own changes must not be slowed down or reordered by the rate limit's retries.
      maxRetries: 10,
    });
    cleanups.push(() => client.close());
    const providerEnv = {
      ORGADMIN_BASE_URL: svc.baseUrl,
      ORGADMIN_REALM: realm,
      ORGADMIN_CLIENT_ID: clientId,
      ORGADMIN_CLIENT_SECRET: clientSecret,
    };
    return {
      svc,
      compat,
      mirror,
      realm,
      clientId,
      clientSecret,
      users,
      client,
      providerEnv,
      async workspace(env = {}) {
        const ws = await TerraformWorkspace.create(mirror, { ...providerEnv, ...env });
        cleanups.push(() => ws.cleanup());
        return ws;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The mode the suite runs the service in: `ORGADMIN_TEST_COMPAT` (`standard` or `hosted`; jest's
 * `e2e-hosted` project sets `hosted`), default `standard`.
 */
export function testCompatMode(): CompatMode {
  const value = process.env.ORGADMIN_TEST_COMPAT || 'standard';
  if (!isCompatMode(value)) throw new Error(`ORGADMIN_TEST_COMPAT must be standard or hosted, not ${JSON.stringify(value)}`);
  return value;
}

/** The names of the realm's organizations, as the SDK lists them (every page), sorted. */
export async function organizationNames(fixture: E2EFixture): Promise<string[]> {
  const orgs = await fixture.client.listAllOrganizations();
  return orgs.map((org) => org.name).sort();
}

/** The ids of an organization's members, without its default admin user, sorted. */
export async function memberIds(fixture: E2EFixture, orgId: string): Promise<string[]> {
  const members = await fixture.client.listAllMembers(orgId, { excludeAdminAccounts: true });
  return members.map((member) => member.id).sort();
}

/** Requests the service answered from index `since` on, as `METHOD path` strings (query removed). */
export function requestsSince(fixture: E2EFixture, since: number): string[] {
  return fixture.svc.requests.slice(since).map((r) => `${r.method} ${r.url.split('?')[0]}`);
}
