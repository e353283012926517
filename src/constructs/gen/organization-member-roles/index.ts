// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface OrganizationMemberRolesConfig extends cdktf.TerraformMetaArguments {
  /**
  * The organization's id.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles#organization_id OrganizationMemberRoles#organization_id}
  */
  readonly organizationId: string;
  /**
  * The realm (project) the object lives in. Defaults to the provider's `realm`. Changing it replaces the object: it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another realm usually need a second provider configuration (`alias`) with a key of that realm.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles#realm OrganizationMemberRoles#realm}
  */
  readonly realm?: string;
  /**
  * The names of every role the member holds in the organization: default roles (`view-members`, `manage-roles`, …) or roles declared with `orgadmin_organization_role` (refer to their `name`, so they are created first). `[]` revokes every role.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles#roles OrganizationMemberRoles#roles}
  */
  readonly roles: string[];
  /**
  * The member's user id (not the username; the `orgadmin_user` data source looks ids up by username or email).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles#user_id OrganizationMemberRoles#user_id}
  */
  readonly userId: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles orgadmin_organization_member_roles}
*/
export class OrganizationMemberRoles extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_organization_member_roles";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a OrganizationMemberRoles resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the OrganizationMemberRoles to import
  * @param importFromId The id of the existing OrganizationMemberRoles that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the OrganizationMemberRoles to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin_organization_member_roles", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_member_roles orgadmin_organization_member_roles} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OrganizationMemberRolesConfig
  */
  public constructor(scope: Construct, id: string, config: OrganizationMemberRolesConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_organization_member_roles',
      terraformGeneratorMetadata: {
        providerName: 'orgadmin',
        providerVersion: '0.1.0',
        providerVersionConstraint: '~> 0.1'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._organizationId = config.organizationId;
    this._realm = config.realm;
    this._roles = config.roles;
    this._userId = config.userId;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
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

  // roles - computed: false, optional: false, required: true
  private _roles?: string[]; 
  public get roles() {
    return cdktf.Fn.tolist(this.getListAttribute('roles'));
  }
  public set roles(value: string[]) {
    this._roles = value;
  }
  // Temporarily expose input value. Use with caution.
  public get rolesInput() {
    return this._roles;
  }

  // user_id - computed: false, optional: false, required: true
  private _userId?: string; 
  public get userId() {
    return this.getStringAttribute('user_id');
  }
  public set userId(value: string) {
    this._userId = value;
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
      organization_id: cdktf.stringToTerraform(this._organizationId),
      realm: cdktf.stringToTerraform(this._realm),
      roles: cdktf.listMapper(cdktf.stringToTerraform, false)(this._roles),
      user_id: cdktf.stringToTerraform(this._userId),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      organization_id: {
        value: cdktf.stringToHclTerraform(this._organizationId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      realm: {
        value: cdktf.stringToHclTerraform(this._realm),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      roles: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._roles),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      user_id: {
        value: cdktf.stringToHclTerraform(this._userId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
