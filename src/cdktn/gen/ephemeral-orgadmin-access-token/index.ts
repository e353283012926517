// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface EphemeralOrgadminAccessTokenConfig extends cdktn.TerraformEphemeralMetaArguments {
  /**
  * The client ID of another API key to issue the token for; defaults to the provider's API key. Needs `client_secret`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token#client_id EphemeralOrgadminAccessToken#client_id}
  */
  readonly clientId?: string;
  /**
  * The secret of the API key named by `client_id` (an ephemeral or sensitive variable keeps it out of files).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token#client_secret EphemeralOrgadminAccessToken#client_secret}
  */
  readonly clientSecret?: string;
  /**
  * The permissions the token carries: a subset of the API key's (`view-organizations`, `manage-organizations`, `create-organization`, `view-users`, `introspect-tokens`, `view-events`, `manage-events`). Defaults to all of the key's permissions.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token#permissions EphemeralOrgadminAccessToken#permissions}
  */
  readonly permissions?: string[];
  /**
  * The realm (project) to read from. Defaults to the provider's `realm`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token#realm EphemeralOrgadminAccessToken#realm}
  */
  readonly realm?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token orgadmin_access_token}
*/
export class EphemeralOrgadminAccessToken extends cdktn.TerraformEphemeralResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_access_token";

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/ephemeral-resources/access_token orgadmin_access_token} Ephemeral Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options EphemeralOrgadminAccessTokenConfig = {}
  */
  public constructor(scope: Construct, id: string, config: EphemeralOrgadminAccessTokenConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_access_token',
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
    this._clientId = config.clientId;
    this._clientSecret = config.clientSecret;
    this._permissions = config.permissions;
    this._realm = config.realm;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // access_token - computed: true, optional: false, required: false
  public get accessToken() {
    return this.getStringAttribute('access_token');
  }

  // client_id - computed: false, optional: true, required: false
  private _clientId?: string; 
  public get clientId() {
    return this.getStringAttribute('client_id');
  }
  public set clientId(value: string) {
    this._clientId = value;
  }
  public resetClientId() {
    this._clientId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientIdInput() {
    return this._clientId;
  }

  // client_secret - computed: false, optional: true, required: false
  private _clientSecret?: string; 
  public get clientSecret() {
    return this.getStringAttribute('client_secret');
  }
  public set clientSecret(value: string) {
    this._clientSecret = value;
  }
  public resetClientSecret() {
    this._clientSecret = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientSecretInput() {
    return this._clientSecret;
  }

  // expires_at - computed: true, optional: false, required: false
  public get expiresAt() {
    return this.getStringAttribute('expires_at');
  }

  // permissions - computed: true, optional: true, required: false
  private _permissions?: string[]; 
  public get permissions() {
    return cdktn.Fn.tolist(this.getListAttribute('permissions'));
  }
  public set permissions(value: string[]) {
    this._permissions = value;
  }
  public resetPermissions() {
    this._permissions = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get permissionsInput() {
    return this._permissions;
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

  // token_type - computed: true, optional: false, required: false
  public get tokenType() {
    return this.getStringAttribute('token_type');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      client_id: cdktn.stringToTerraform(this._clientId),
      client_secret: cdktn.stringToTerraform(this._clientSecret),
      permissions: cdktn.listMapper(cdktn.stringToTerraform, false)(this._permissions),
      realm: cdktn.stringToTerraform(this._realm),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      client_id: {
        value: cdktn.stringToHclTerraform(this._clientId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      client_secret: {
        value: cdktn.stringToHclTerraform(this._clientSecret),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      permissions: {
        value: cdktn.listMapperHcl(cdktn.stringToHclTerraform, false)(this._permissions),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      realm: {
        value: cdktn.stringToHclTerraform(this._realm),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
