/**
 * Single sign-on for an organization's customer: `DomainVerification` (a domain verified by its
 * DNS TXT record, waited for in the apply: `orgadmin_organization_domain_verification`) and
 * `IdentityProvider` (an OpenID Connect upstream of the organization,
 * `orgadmin_organization_identity_provider`, optionally with the roles its people get on their
 * first sign-in, an `oidc-hardcoded-org-role-idp-mapper`). `organization.addDomain(...)` and
 * `organization.addIdentityProvider(...)` make them.
 */
import { Construct } from 'constructs';
import type { TerraformProvider } from './toolkit';
import { OrganizationDomainVerification as DomainVerificationResource } from './gen/organization-domain-verification';
import { OrganizationIdentityProvider as IdentityProviderResource } from './gen/organization-identity-provider';
import { OrganizationIdentityProviderMapper as MapperResource } from './gen/organization-identity-provider-mapper';
import type { IOrganization } from './organization';
import type { RoleRef } from './member-roles';
import { CONFIG_LIST_SEPARATOR, identityProviderAliasProblem, MAPPER_TYPES } from '../api/identity-provider-settings';
import { domainProblem, normalizeDomain } from '../api/validation';
import { Problems, isUnresolved, quote } from './validation';

/** Options of {@link IOrganization.addDomain}. */
export interface DomainVerificationOptions {
  /**
   * How long the apply waits for the record, as a duration (`30s`, `10m`, `1h`).
   * @default 10 minutes
   */
  readonly timeout?: string;
  /** Construct id. @default `Domain-<domain>` */
  readonly id?: string;
}

/** Props of {@link DomainVerification}. */
export interface DomainVerificationProps extends Omit<DomainVerificationOptions, 'id'> {
  /** The organization, which must list the domain in its `domains`. */
  readonly organization: IOrganization;
  /** The domain, e.g. `globex.com`. */
  readonly domain: string;
}

/**
 * A domain of an organization, verified in the apply: the apply waits (with backoff, up to
 * `timeout`) until the service finds the TXT record {@link recordName} with {@link recordValue},
 * which a DNS resource of any provider in the same stack can publish (both are known at plan).
 */
export class DomainVerification extends Construct {
  /** The DNS name of the TXT record to publish. */
  readonly recordName: string;
  /** The value the TXT record must hold. */
  readonly recordValue: string;
  /** The `orgadmin_organization_domain_verification` resource behind this construct. */
  readonly resource: DomainVerificationResource;

  /** @throws ConstructValidationError listing every problem with the props. */
  constructor(scope: Construct, id: string, props: DomainVerificationProps) {
    const problems = new Problems();
    if (!isUnresolved(props.domain)) {
      const problem = typeof props.domain === 'string' ? domainProblem(props.domain) : 'must be a string';
      if (problem) problems.add(`domain ${quote(props.domain)} ${problem}.`);
    }
    if (props.timeout !== undefined && !isUnresolved(props.timeout) && !/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(props.timeout)) {
      problems.add(`timeout ${quote(props.timeout)} must be a duration such as "30s", "10m" or "1h".`);
    }
    problems.throwIfAny(`${scope.node.path}/${id}`);
    super(scope, id);
    this.resource = new DomainVerificationResource(this, 'Default', {
      organizationId: props.organization.organizationId,
      domain: isUnresolved(props.domain) ? props.domain : normalizeDomain(props.domain),
      realm: props.organization.realm,
      provider: props.organization.provider,
      ...(props.timeout !== undefined ? { timeouts: { create: props.timeout } } : {}),
    });
    this.recordName = this.resource.recordName;
    this.recordValue = this.resource.recordValue;
  }
}

/** Props of {@link IOrganization.addIdentityProvider}. */
export interface IdentityProviderOptions {
  /** The name on the login page. @default the alias */
  readonly displayName?: string;
  /** The upstream's issuer (its discovery document is found under it). Give it or `discoveryUrl`. */
  readonly issuer?: string;
  /** The upstream's discovery document. Give it or `issuer`. */
  readonly discoveryUrl?: string;
  /** The client id of the service at the upstream. */
  readonly clientId: string;
  /**
   * The client secret at the upstream (write-only: never in plan or state), e.g. a variable's value.
   * Write-only attributes need Terraform 1.11: with CDK Terrain, declare `"targetVersions": {
   * "terraform": ">=1.11.0" }` in cdktf.json.
   * @default a public client (PKCE alone)
   */
  readonly clientSecret?: string;
  /** The secret's version: change it to send a new secret. @default 1 when `clientSecret` is given */
  readonly clientSecretVersion?: number;
  /** Whether sign-in through the provider is on. @default true */
  readonly enabled?: boolean;
  /**
   * Organization roles its people get on their first sign-in (default roles by name, or declared roles).
   * @default none
   */
  readonly firstSignInRoles?: readonly RoleRef[];
  /** Construct id. @default `Idp-<alias>` */
  readonly id?: string;
}

/** Props of {@link IdentityProvider}. */
export interface IdentityProviderProps extends Omit<IdentityProviderOptions, 'id'> {
  /** The organization that owns the provider. */
  readonly organization: IOrganization;
  /** The provider's alias, unique in the realm; part of {@link IdentityProvider.redirectUri}. */
  readonly alias: string;
  /** The provider configuration to use. @default the organization's */
  readonly provider?: TerraformProvider;
}

/**
 * An OpenID Connect identity provider of an organization: its people (addresses of its verified
 * domains) sign in there. Register {@link redirectUri} at the upstream.
 */
export class IdentityProvider extends Construct {
  /** The alias, as a reference to the provider resource. */
  readonly alias: string;
  /** The broker's callback to register at the upstream as a redirect URI of the client. */
  readonly redirectUri: string;
  /** The `orgadmin_organization_identity_provider` resource behind this construct. */
  readonly resource: IdentityProviderResource;
  /** The role mapper of `firstSignInRoles`, when given. */
  readonly firstSignInRolesMapper?: MapperResource;

  /** @throws ConstructValidationError listing every problem with the props. */
  constructor(scope: Construct, id: string, props: IdentityProviderProps) {
    const problems = new Problems();
    if (!isUnresolved(props.alias)) {
      const problem = typeof props.alias === 'string' ? identityProviderAliasProblem(props.alias) : 'must be a string';
      if (problem) problems.add(`alias ${quote(props.alias)} ${problem}.`);
    }
    if ((props.issuer === undefined) === (props.discoveryUrl === undefined)) problems.add('give exactly one of issuer and discoveryUrl.');
    if (props.clientSecretVersion !== undefined && props.clientSecret === undefined) problems.add('clientSecretVersion versions clientSecret: give the secret too.');
    problems.throwIfAny(`${scope.node.path}/${id}`);
    super(scope, id);
    const provider = props.provider ?? props.organization.provider;
    this.resource = new IdentityProviderResource(this, 'Default', {
      organizationId: props.organization.organizationId,
      alias: props.alias,
      displayName: props.displayName,
      issuer: props.issuer,
      discoveryUrl: props.discoveryUrl,
      clientId: props.clientId,
      clientSecretWo: props.clientSecret,
      clientSecretWoVersion: props.clientSecret === undefined ? undefined : (props.clientSecretVersion ?? 1),
      enabled: props.enabled,
      realm: props.organization.realm,
      provider,
    });
    this.alias = this.resource.alias;
    this.redirectUri = this.resource.redirectUri;
    if (props.firstSignInRoles !== undefined && props.firstSignInRoles.length > 0) {
      this.firstSignInRolesMapper = new MapperResource(this, 'FirstSignInRoles', {
        organizationId: props.organization.organizationId,
        identityProviderAlias: this.resource.alias,
        name: 'first sign-in roles',
        mapperType: MAPPER_TYPES.orgRoles,
        // Role references: the roles are created before the mapper names them.
        config: { org_role: props.firstSignInRoles.map((role) => (typeof role === 'string' ? role : role.roleName)).join(CONFIG_LIST_SEPARATOR), syncMode: 'IMPORT' },
        realm: props.organization.realm,
        provider,
      });
    }
  }
}
