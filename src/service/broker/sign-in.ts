/**
 * Who a brokered sign-in is, once the upstream's ID token passed every check (upstream.ts): the
 * local user it is linked to, or a user linked or created now, made a member of the provider's
 * organization. The rule for accounts that already exist, in this order (docs/guides/service.md,
 * "Single sign-on"):
 *
 * 1. An upstream account already linked (provider, upstream issuer, `sub`) is that user.
 * 2. Otherwise the upstream must give an email address in one of the organization's verified
 *    domains: the organization proved it owns the domain, so its provider speaks for addresses
 *    there, and for no others.
 * 3. A local user with that email is linked only when the upstream asserts `email_verified: true`
 *    in the ID token (never by email alone; `trustEmail` does not stand in for the claim here),
 *    and never when the user administers the realm or is not an ordinary enabled user.
 * 4. Otherwise a new user is created: username from a username mapper's template, else the email;
 *    email, first and last name from the ID token (attribute mappers may choose other claims);
 *    the email counts as verified when the upstream says so or the provider trusts its emails.
 *
 * Every sign-in makes sure the user is a member of the organization (a member removed by hand is
 * a member again at the next sign-in through the organization's provider), and the provider's
 * `oidc-hardcoded-org-role-idp-mapper`s grant their organization roles in the same transaction:
 * on the first sign-in, and on every later one when the mapper's sync mode (or, with `INHERIT`,
 * the provider's) is `FORCE`. A failure writes nothing, so the next sign-in is the first one again.
 * A role the organization no longer has is skipped with a warning in the log; it never blocks the
 * sign-in.
 */
import { randomUUID } from 'node:crypto';
import { configList, DEFAULT_SYNC_MODE, emailProblem, IDP_CONFIG, INHERIT_SYNC_MODE, MAPPER_TYPES, normalizeDomain, reservedUsernameProblem } from '../../api';
import { mapperRoles } from '../admin/identity-providers';
import type { ServiceContext } from '../context';
import type { FederatedSignIn, IdentityProviderMapperRecord, IdentityProviderRecord } from '../store/sso-store';
import { newUser, StoreConflictError, type UserRecord } from '../store/store';
import type { UpstreamIdentity } from './upstream';

/** A sign-in the rule refuses; the message is shown to the person signing in. */
export class SignInRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInRefused';
  }
}

/** The result of an admitted sign-in. */
export interface AdmittedUser {
  user: UserRecord;
  /** True when this sign-in made the link (created or linked the user): the first sign-in through this provider. */
  firstSignIn: boolean;
  /** Roles a role mapper names that the organization does not have (not granted; the caller logs them). */
  skippedRoles?: string[];
}

/** A claim as a string, or undefined. */
function claim(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/**
 * Expands a username template (Keycloak's syntax, its common part): `${CLAIM.<name>}`,
 * `${ALIAS}`, each optionally followed by ` | lowercase` or ` | uppercase`.
 */
export function expandTemplate(template: string, claims: Record<string, unknown>, alias: string): string {
  return template.replace(/\$\{\s*(ALIAS|CLAIM\.([^}|\s]+))\s*(?:\|\s*(lowercase|uppercase)\s*)?\}/g, (_match, what: string, claimName: string | undefined, fn: string | undefined) => {
    const value = what === 'ALIAS' ? alias : (claim(claims, claimName!) ?? '');
    return fn === 'lowercase' ? value.toLowerCase() : fn === 'uppercase' ? value.toUpperCase() : value;
  });
}

/** The profile of a new user from the ID token and the provider's attribute and username mappers. */
export function profileOf(identity: UpstreamIdentity, alias: string, mappers: readonly IdentityProviderMapperRecord[]): { username?: string; email?: string; firstName?: string; lastName?: string } {
  const claims = identity.claims as Record<string, unknown>;
  const profile: { username?: string; email?: string; firstName?: string; lastName?: string } = {
    email: claim(claims, 'email'),
    firstName: claim(claims, 'given_name'),
    lastName: claim(claims, 'family_name'),
  };
  for (const mapper of mappers) {
    if (mapper.mapperType === MAPPER_TYPES.attribute) {
      const field = mapper.config['user.attribute'] as 'email' | 'firstName' | 'lastName';
      profile[field] = claim(claims, mapper.config.claim ?? '');
    } else if (mapper.mapperType === MAPPER_TYPES.username) {
      profile.username = expandTemplate(mapper.config.template ?? '', claims, alias).trim() || undefined;
    }
  }
  return profile;
}

/** The domain of an email address, normalized. */
const domainOf = (email: string): string => normalizeDomain(email.slice(email.lastIndexOf('@') + 1));

/** Where a brokered sign-in comes from: the client signed in to and the person's address (the user is the admitted one). */
export interface SignInVia {
  clientId: string | null;
  ipAddress: string | null;
}

/**
 * The organization roles the provider's role mappers grant at this sign-in: every one on the
 * first sign-in, afterwards those of mappers that sync by `FORCE`.
 */
export function rolesToGrant(provider: Pick<IdentityProviderRecord, 'config'>, mappers: readonly IdentityProviderMapperRecord[], firstSignIn: boolean): string[] {
  const providerMode = provider.config[IDP_CONFIG.syncMode] ?? DEFAULT_SYNC_MODE;
  const names = new Set<string>();
  for (const mapper of mappers) {
    if (mapper.mapperType !== MAPPER_TYPES.orgRoles) continue;
    const own = mapper.config.syncMode;
    const mode = own === undefined || own === INHERIT_SYNC_MODE ? providerMode : own;
    if (firstSignIn || mode === 'FORCE') for (const name of mapperRoles(mapper)) names.add(name);
  }
  return [...names];
}

/**
 * Admits the person an upstream identity is (see the module comment): finds, links or creates the
 * user, makes them a member of the provider's organization and grants the roles of the provider's
 * role mappers, in one transaction (a sign-in is never admitted without its roles). Its events name
 * the admitted user as the actor, with `via`'s client and address. Throws {@link SignInRefused}
 * when the rule refuses.
 */
export async function admitUpstreamIdentity(
  ctx: ServiceContext,
  provider: IdentityProviderRecord & { organizationId: string },
  identity: UpstreamIdentity,
  via: SignInVia,
): Promise<AdmittedUser> {
  const { realm, alias, organizationId } = provider;
  const { store } = ctx;
  const subject = identity.claims.sub;
  const timestamp = ctx.now();
  const mappers = await store.sso.listMappers(realm, alias);
  const linkedId = await store.sso.findFederatedUser(realm, alias, identity.issuer, subject);
  if (linkedId !== undefined) {
    const user = await store.getUser(realm, linkedId);
    if (!user || user.kind !== 'user' || !user.enabled) throw new SignInRefused('Your account here is disabled; ask an administrator of this service.');
    const skipped = await admit(ctx, { userId: user.id, realm, organizationId, timestamp, roles: rolesToGrant(provider, mappers, false) }, via, user);
    return admitted(user, false, skipped);
  }

  const profile = profileOf(identity, alias, mappers);
  const email = profile.email;
  if (email === undefined || emailProblem(email)) {
    throw new SignInRefused(`${provider.displayName ?? alias} gave no usable email address; this service needs one to sign you in.`);
  }
  const domain = domainOf(email);
  const verified = await store.sso.verifiedDomains(realm, organizationId);
  const allowed = configList(provider.config[IDP_CONFIG.domains]);
  if (!verified.includes(domain) || (allowed.length > 0 && !allowed.includes(domain))) {
    throw new SignInRefused(`${provider.displayName ?? alias} signed you in as ${email}, but ${domain} is not a verified domain it signs in for.`);
  }
  const link = { realm, alias, issuer: identity.issuer, subject, userId: '' };
  const assertsVerified = identity.claims.email_verified === true;

  const [existing] = await store.findUsers(realm, { email, exact: true, max: 1 });
  if (existing) {
    if (!assertsVerified) {
      throw new SignInRefused(
        `An account with the email ${email} already exists here. It is linked to ${provider.displayName ?? alias} only when that provider says the address is verified (email_verified); sign in with your password instead, or ask an administrator.`,
      );
    }
    if (existing.kind !== 'user' || existing.realmAdmin || !existing.enabled) {
      throw new SignInRefused(`The account with the email ${email} cannot be signed in through ${provider.displayName ?? alias}; sign in with your password instead.`);
    }
    const skipped = await admit(ctx, { userId: existing.id, link: { ...link, userId: existing.id }, realm, organizationId, timestamp, roles: rolesToGrant(provider, mappers, true) }, via, existing);
    return admitted(existing, true, skipped);
  }

  const username = profile.username ?? email;
  const reserved = reservedUsernameProblem(username);
  if (reserved) throw new SignInRefused(`The username ${username} ${reserved}; ask an administrator to change this provider's username mapper.`);
  const user = newUser({
    id: randomUUID(),
    realm,
    username,
    email,
    firstName: profile.firstName ?? null,
    lastName: profile.lastName ?? null,
    emailVerified: assertsVerified || provider.trustEmail,
    kind: 'user',
    createdTimestamp: timestamp,
  });
  const skipped = await admit(ctx, { newUser: user, userId: user.id, link: { ...link, userId: user.id }, realm, organizationId, timestamp, roles: rolesToGrant(provider, mappers, true) }, via, user);
  return admitted(user, true, skipped);
}

/** The result of an admission, with the skipped roles only when there are some. */
const admitted = (user: UserRecord, firstSignIn: boolean, skippedRoles: string[]): AdmittedUser =>
  skippedRoles.length > 0 ? { user, firstSignIn, skippedRoles } : { user, firstSignIn };

/**
 * Writes the admission as `user` acting through `via`, turning collisions into refusals a person
 * can act on; answers the roles the organization has no role of.
 */
async function admit(ctx: ServiceContext, signIn: FederatedSignIn, via: SignInVia, user: Pick<UserRecord, 'id' | 'username'>): Promise<string[]> {
  try {
    return await ctx.store.sso.admitFederatedUser(signIn, { ...via, userId: user.id, username: user.username });
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    const taken = signIn.newUser;
    throw new SignInRefused(
      error.what === 'username' && taken
        ? `The username ${taken.username} is taken here by another account; ask an administrator.`
        : 'This sign-in collided with another one for the same account; please sign in again.',
    );
  }
}
