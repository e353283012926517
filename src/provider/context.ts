/**
 * What the orgadmin provider's `configure` builds once per provider process and hands to every
 * resource and data source call: the one SDK client (with its one token source), the default realm
 * and what error reporting needs to give good advice.
 */
import type { Dispatcher } from 'undici';
import type { OrgAdminClient, TokenSource } from '../client';
import type { Logger, Value } from '../tfplugin/framework/types';
import type { Member } from '../api';
import type { MemberClaims } from './member-claims';
import type { PlannedMemberships } from './planned-memberships';
import type { PlannedNames } from './planned-names';
import type { UserDirectory } from './user-directory';
import type { WaitClock } from './domain-wait';
import { knownString } from './values';

/** How the provider authenticates; error advice differs between the two. */
export type AuthMethod = 'client_credentials' | 'access_token';

/** The provider context: what every resource and data source receives as `ctx`. */
export interface OrgAdminProviderContext {
  /** The SDK client, shared by every call of this provider process. */
  readonly client: OrgAdminClient;
  /**
   * The client's token source: an API key's (it can issue tokens of its own for other tools, see
   * `orgadmin_access_token`) or the configured access token's.
   */
  readonly tokenSource: TokenSource;
  /** What the client's requests go through (keep-alive, trusted CAs): for the provider's other HTTP clients. */
  readonly dispatcher: Dispatcher;
  /** The provider's realm: the default of every resource's `realm` attribute. */
  readonly realm: string;
  /** The service's base address, for error advice (never contains credentials). */
  readonly baseUrl: string;
  /** Whether the provider uses an API key (client credentials) or a user access token. */
  readonly authMethod: AuthMethod;
  /** Structured logs on stderr; never pass secrets. */
  readonly logger: Logger;
  /**
   * The configured secrets (client secret, access token), kept only so that error reporting can
   * remove them from any text that reaches a diagnostic.
   */
  readonly secrets: readonly string[];
  /** Organization names planned in this process, and organizations read from a state (duplicate-name checks). */
  readonly plannedNames: PlannedNames;
  /** Which resources claim which organizations' members in this process (see member-claims.ts). */
  readonly claims: MemberClaims;
  /** Memberships planned in this process (the member roles' plan-time check of membership). */
  readonly plannedMemberships: PlannedMemberships;
  /** User lookups by id, username and email, remembered for the process. */
  readonly users: UserDirectory;
  /**
   * Member lists read by the refresh of a member set, by `realm NUL organization id`: the plan of
   * the same resource, right after in this process, checks against them without asking again.
   */
  readonly refreshedMembers: Map<string, Member[]>;
  /** The API key's client id (client credentials), for advice that names the key; never a secret. */
  readonly clientId?: string;
  /**
   * Whether this process has applied a change yet. Terraform plans in one process and applies in
   * another, where it plans each create again just before applying it; checks that only serve the
   * plan's reader are skipped in the apply process once it is known to be one.
   */
  readonly progress: { applied: boolean };
  /** The clock of waits (domain verification): the real one, or a test's. */
  readonly clock: WaitClock;
}

/**
 * The realm a resource works in: its own `realm` attribute when known, else the provider's realm.
 */
export function realmFor(ctx: OrgAdminProviderContext, realmValue: Value | undefined): string {
  const realm = knownString(realmValue);
  return realm !== undefined && realm !== '' ? realm : ctx.realm;
}

/** The cancellation a framework request carries (Terraform's StopProvider or a closed stream), if any. */
export function signalOf(req: object): AbortSignal | undefined {
  const signal = (req as { signal?: unknown }).signal;
  return signal instanceof AbortSignal ? signal : undefined;
}

/** Options of an SDK call made for a Terraform request: the realm and the request's cancellation. */
export function callOptions(realm: string, signal: AbortSignal | undefined): { realm: string; signal?: AbortSignal } {
  return signal ? { realm, signal } : { realm };
}
