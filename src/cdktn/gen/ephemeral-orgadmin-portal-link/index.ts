// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface EphemeralOrgadminPortalLinkConfig extends cdktn.TerraformEphemeralMetaArguments {
  /**
  * The page the portal sends the user back to (absolute `http` or `https` URL); without it, `redirect` is the link itself.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link#base_uri EphemeralOrgadminPortalLink#base_uri}
  */
  readonly baseUri?: string;
  /**
  * The organization whose portal the link opens.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link#organization_id EphemeralOrgadminPortalLink#organization_id}
  */
  readonly organizationId: string;
  /**
  * The realm (project) to read from. Defaults to the provider's `realm`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link#realm EphemeralOrgadminPortalLink#realm}
  */
  readonly realm?: string;
  /**
  * The member the link signs in as; defaults to the organization's admin user `org-admin-<id>`. Must be a member.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link#user_id EphemeralOrgadminPortalLink#user_id}
  */
  readonly userId?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link orgadmin_portal_link}
*/
export class EphemeralOrgadminPortalLink extends cdktn.TerraformEphemeralResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_portal_link";

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/portal_link orgadmin_portal_link} Ephemeral Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options EphemeralOrgadminPortalLinkConfig
  */
  public constructor(scope: Construct, id: string, config: EphemeralOrgadminPortalLinkConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_portal_link',
      terraformGeneratorMetadata: {
        providerName: 'orgadmin',
        providerVersion: '0.1.0',
        providerVersionConstraint: '~> 0.1'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      forEach: config.forEach
    });
    this._baseUri = config.baseUri;
    this._organizationId = config.organizationId;
    this._realm = config.realm;
    this._userId = config.userId;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // base_uri - computed: false, optional: true, required: false
  private _baseUri?: string; 
  public get baseUri() {
    return this.getStringAttribute('base_uri');
  }
  public set baseUri(value: string) {
    this._baseUri = value;
  }
  public resetBaseUri() {
    this._baseUri = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get baseUriInput() {
    return this._baseUri;
  }

  // link - computed: true, optional: false, required: false
  public get link() {
    return this.getStringAttribute('link');
  }

  // organization_id - computed: false, optional: false, required: true
  private _organizationId?: string; 
  public get organizationId() {
    return this.getStringAttribute('organization_id');
  }
  public set organizationId(value: string) {
    this._organizationId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get organizationIdInput() {
    return this._organizationId;
  }

  // realm - computed: true, optional: true, required: false
  private _realm?: string; 
  public get realm() {
    return this.getStringAttribute('realm');
  }
  public set realm(value: string) {
    this._realm = value;
  }
  public resetRealm() {
    this._realm = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get realmInput() {
    return this._realm;
  }

  // redirect - computed: true, optional: false, required: false
  public get redirect() {
    return this.getStringAttribute('redirect');
  }

  // user_id - computed: true, optional: true, required: false
  private _userId?: string; 
  public get userId() {
    return this.getStringAttribute('user_id');
  }
  public set userId(value: string) {
    this._userId = value;
  }
  public resetUserId() {
    this._userId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get userIdInput() {
    return this._userId;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      base_uri: cdktn.stringToTerraform(this._baseUri),
      organization_id: cdktn.stringToTerraform(this._organizationId),
      realm: cdktn.stringToTerraform(this._realm),
      user_id: cdktn.stringToTerraform(this._userId),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      base_uri: {
        value: cdktn.stringToHclTerraform(this._baseUri),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      organization_id: {
        value: cdktn.stringToHclTerraform(this._organizationId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      realm: {
        value: cdktn.stringToHclTerraform(this._realm),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      user_id: {
        value: cdktn.stringToHclTerraform(this._userId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
