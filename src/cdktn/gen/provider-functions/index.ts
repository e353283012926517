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
  * Splits the import id of an orgadmin resource into `realm`, `organization_id`, `user_id` and `role_name` (null where the id has none), by the forms the resources import with: `ID` or `REALM/ID` (`orgadmin_organization`), `ORG/USER` or `REALM/ORG/USER` (`orgadmin_membership`), `ORG` or `REALM/ORG` (`orgadmin_organization_members`), `ORG_ID/ROLE_NAME` or `REALM/ORG_ID/ROLE_NAME` (`orgadmin_organization_role`), `ORG_ID/USER_ID` or `REALM/ORG_ID/USER_ID` (`orgadmin_organization_member_roles`).
  * 
  * Give the resource type as a second argument to read the id by that resource's form. Without it the id must have one reading: one segment is an organization id, three are `REALM/ORG/USER`; two segments are ambiguous (`ORG/USER` or `REALM/ID`) and fail. A role's id looks like a membership's, so it is read as a role only with the type `orgadmin_organization_role`.
  * @param {string} id - The import id, as `terraform import` takes it.
  * @param {Array<string>} resourceType - At most one: the resource the id is for (`orgadmin_organization`, `orgadmin_membership`, `orgadmin_organization_members`, `orgadmin_organization_role`, `orgadmin_organization_member_roles`).
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
