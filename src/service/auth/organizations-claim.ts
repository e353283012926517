/**
 * The `organizations` claim of users' tokens (docs/guides/service.md#the-organizations-claim): the
 * hosted service's "Organization Role" token mapper (keycloak-orgs OrganizationRoleMapper,
 * `oidc-organization-role-mapper`) in its format, organization id → `{ "name", "roles" }` for every
 * organization the user belongs to, so that applications can authorise by organization role.
 *
 * Opt-in, as a mapper is in the hosted service: a realm turns it on for every token its users get
 * (`orgadmin realms update --organizations-claim on`), a registered login client for its own
 * (`orgadmin clients create|update --organizations-claim on`). Tokens of API keys'
 * service accounts never carry it. The claim is what holds when the token is issued: a role granted
 * later shows in the next token.
 */
import type { OrganizationsClaim } from '../../api';
import type { ServiceContext } from '../context';
import type { RealmSettings } from '../store/store';
import { DASHBOARD_CLIENT_ID } from './oidc-clients';
import { PUBLIC_CLIENT_ID } from './public-client';

/** Whether tokens the realm issues to `clientId` for a user carry the claim. */
async function claimWanted(ctx: ServiceContext, realm: Pick<RealmSettings, 'name' | 'organizationsClaim'>, clientId: string): Promise<boolean> {
  if (realm.organizationsClaim) return true;
  // The service's own clients have no setting of their own: only the realm's counts for them.
  if (clientId === PUBLIC_CLIENT_ID || clientId === DASHBOARD_CLIENT_ID) return false;
  return (await ctx.store.getOidcClient(realm.name, clientId))?.organizationsClaim === true;
}

/** The claim for `userId`'s token issued to `clientId`, or undefined when neither the realm nor the client asks for it. */
export async function organizationsClaimFor(
  ctx: ServiceContext,
  realm: Pick<RealmSettings, 'name' | 'organizationsClaim'>,
  clientId: string,
  userId: string,
): Promise<OrganizationsClaim | undefined> {
  if (!(await claimWanted(ctx, realm, clientId))) return undefined;
  const claim: OrganizationsClaim = {};
  for (const { organization, roles } of await ctx.store.listUserOrganizationRoles(realm.name, userId)) {
    claim[organization.id] = { name: organization.name, roles: roles.map((role) => role.name) };
  }
  return claim;
}
