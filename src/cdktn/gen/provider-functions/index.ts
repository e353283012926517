// generated from provider function schema

import * as cdktn from 'cdktn';

/**
* Provider-defined functions of the orgadmin provider.
*/
export class OrgadminProviderFunctions {
  private readonly providerLocalName: string;

  /**
  * @param providerLocalName The local name of the provider in required_providers; defaults to the registry short name. Override when the provider is declared under a different local name — aliases do not change the namespace, local names do.
  */
  constructor(providerLocalName: string) {
    this.providerLocalName = providerLocalName;
  }

  /**
  * Returns the DNS TXT record that proves an organization controls a domain, as an object with `name` (`_org-domain-ownership.<domain>`) and `value` (the hex SHA-256 of `"<domain> <organization id>"`, the hosted service's rule). It is computed from the arguments alone, so a DNS record resource of any DNS provider can use it in the same configuration as `orgadmin_organization_domain_verification`. The domain is taken in lower case without a trailing dot, as the service stores it.
  * @param {string} organizationId - The organization's id (`orgadmin_organization.<name>.id`).
  * @param {string} domain - One of the organization's domains, e.g. `globex.com`.
  * @returns {object}
  */
  public domainVerificationRecord(organizationId: string, domain: string): cdktn.IResolvable {
    return cdktn.TerraformProviderFunction.invoke(this.providerLocalName, "domain_verification_record", [organizationId, domain]);
  }

  /**
  * Splits the import id of an orgadmin resource into `realm`, `organization_id`, `user_id`, `role_name`, `domain`, `alias`, `mapper_id` and `webhook_id` (null where the id has none), by the forms the resources import with: `ID` or `REALM/ID` (`orgadmin_organization`), `ORG/USER` or `REALM/ORG/USER` (`orgadmin_membership`), `ORG` or `REALM/ORG` (`orgadmin_organization_members`), `ORG_ID/ROLE_NAME` or `REALM/ORG_ID/ROLE_NAME` (`orgadmin_organization_role`), `ORG_ID/USER_ID` or `REALM/ORG_ID/USER_ID` (`orgadmin_organization_member_roles`), `ORG/DOMAIN` or `REALM/ORG/DOMAIN` (`orgadmin_organization_domain_verification`; the domain has a dot), `ORG/ALIAS` or `REALM/ORG/ALIAS` (`orgadmin_organization_identity_provider`), `ORG/ALIAS/MAPPER_ID` or `REALM/ORG/ALIAS/MAPPER_ID` (`orgadmin_organization_identity_provider_mapper`), `WEBHOOK_ID` or `REALM/WEBHOOK_ID` (`orgadmin_webhook`).
  * 
  * Give the resource type as a second argument to read the id by that resource's form. Without it the id must have one reading: one segment is an organization id, three without a dot in the last are `REALM/ORG/USER`; two segments are ambiguous (`ORG/USER`, `ORG/DOMAIN` or `REALM/ID`), and so are three with a dot in the last (`REALM/ORG/USER` or `REALM/ORG/DOMAIN`): they fail. A role's and an identity provider's ids look like a membership's, so they are read as such only with the type `orgadmin_organization_role` or `orgadmin_organization_identity_provider`; a mapper's id only with `orgadmin_organization_identity_provider_mapper`; a webhook's only with `orgadmin_webhook`.
  * @param {string} id - The import id, as `terraform import` takes it.
  * @param {Array<string>} resourceType - At most one: the resource the id is for (`orgadmin_organization`, `orgadmin_membership`, `orgadmin_organization_members`, `orgadmin_organization_role`, `orgadmin_organization_member_roles`, `orgadmin_organization_domain_verification`, `orgadmin_organization_identity_provider`, `orgadmin_organization_identity_provider_mapper`, `orgadmin_webhook`).
  * @returns {object}
  */
  public parseImportId(id: string, resourceType: Array<string>): cdktn.IResolvable {
    return cdktn.TerraformProviderFunction.invoke(this.providerLocalName, "parse_import_id", [id, ...resourceType]);
  }

  /**
  * Returns the realm that a service address names, by the rule the provider uses when its `realm` is not set: the first DNS label of the host (`https://acme.example.com` → `acme`). An address that is not an absolute `http` or `https` URL, or whose host is an IP address or a single label (`localhost`), names no realm: the call fails on the argument.
  * @param {string} url - The service's base address, e.g. `https://acme.example.com`.
  * @returns {string}
  */
  public realmFromUrl(url: string): string {
    return cdktn.Token.asString(cdktn.TerraformProviderFunction.invoke(this.providerLocalName, "realm_from_url", [url]));
  }
}
