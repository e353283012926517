/**
 * What the orgadmin provider's `configure` builds once per provider process and hands to every
 * resource and data source call: the one SDK client (with its one token source), the default realm
 * and what error reporting needs to give good advice.
 */
import type { OrgAdminClient } from '../client';
import type { Logger, Value } from '../tfplugin/framework/types';
import type { PlannedMemberships } from './planned-memberships';
import type { PlannedNames } from './resources/organization-creation';
import { knownString } from './values';

/** How the provider authenticates; error advice differs between the two. */
export type AuthMethod = 'client_credentials' | 'access_token';

/** The provider context: what every resource and data source receives as `ctx`. */
export interface OrgAdminProviderContext {
  /** The SDK client, shared by every call of this provider process. */
  readonly client: OrgAdminClient;
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
  /** Memberships planned in this process (the member roles' plan-time check of membership). */
  readonly plannedMemberships: PlannedMemberships;
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
