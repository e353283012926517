// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface OrganizationMembersConfig extends cdktn.TerraformMetaArguments {
  /**
  * Members by email address (matched without regard to case; the state keeps your spelling). Each email must belong to one user. Plans name each added or removed member. A set, like `usernames`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#emails OrganizationMembers#emails}
  */
  readonly emails?: string[];
  /**
  * The organization whose members this resource manages.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#organization_id OrganizationMembers#organization_id}
  */
  readonly organizationId: string;
  /**
  * The realm (project) the object lives in. Defaults to the provider's `realm`. Changing it replaces the object: it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another realm usually need a second provider configuration (`alias`) with a key of that realm.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#realm OrganizationMembers#realm}
  */
  readonly realm?: string;
  /**
  * Members by user id. The order does not matter: the same ids in another order are no change. Each id may be listed once; a repeat is an error. A list, which Terraform checks in linear time: the form for very large sets. Terraform shows a list's changes element by element, so plans are shortest when the configuration lists the ids in the order the state has: after an import, the users' username order, as `data.orgadmin_users.<name>.ids` and `[for u in data.orgadmin_user.<name> : u.id]` over usernames list them.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#user_ids OrganizationMembers#user_ids}
  */
  readonly userIds?: string[];
  /**
  * Members by username (matched without regard to case; the state keeps your spelling). Plans name each added or removed member. A set, which Terraform checks in quadratic time when applied: for thousands of members prefer `user_ids`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#usernames OrganizationMembers#usernames}
  */
  readonly usernames?: string[];
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members orgadmin_organization_members}
*/
export class OrganizationMembers extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_organization_members";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a OrganizationMembers resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the OrganizationMembers to import
  * @param importFromId The id of the existing OrganizationMembers that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the OrganizationMembers to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin_organization_members", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_members orgadmin_organization_members} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OrganizationMembersConfig
  */
  public constructor(scope: Construct, id: string, config: OrganizationMembersConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_organization_members',
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
    this._emails = config.emails;
    this._organizationId = config.organizationId;
    this._realm = config.realm;
    this._userIds = config.userIds;
    this._usernames = config.usernames;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // emails - computed: false, optional: true, required: false
  private _emails?: string[]; 
  public get emails() {
    return cdktn.Fn.tolist(this.getListAttribute('emails'));
  }
  public set emails(value: string[]) {
    this._emails = value;
  }
  public resetEmails() {
    this._emails = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get emailsInput() {
    return this._emails;
  }

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

  // user_ids - computed: false, optional: true, required: false
  private _userIds?: string[]; 
  public get userIds() {
    return this.getListAttribute('user_ids');
  }
  public set userIds(value: string[]) {
    this._userIds = value;
  }
  public resetUserIds() {
    this._userIds = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get userIdsInput() {
    return this._userIds;
  }

  // usernames - computed: false, optional: true, required: false
  private _usernames?: string[]; 
  public get usernames() {
    return cdktn.Fn.tolist(this.getListAttribute('usernames'));
  }
  public set usernames(value: string[]) {
    this._usernames = value;
  }
  public resetUsernames() {
    this._usernames = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get usernamesInput() {
    return this._usernames;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      emails: cdktn.listMapper(cdktn.stringToTerraform, false)(this._emails),
      organization_id: cdktn.stringToTerraform(this._organizationId),
      realm: cdktn.stringToTerraform(this._realm),
      user_ids: cdktn.listMapper(cdktn.stringToTerraform, false)(this._userIds),
      usernames: cdktn.listMapper(cdktn.stringToTerraform, false)(this._usernames),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      emails: {
        value: cdktn.listMapperHcl(cdktn.stringToHclTerraform, false)(this._emails),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
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
      user_ids: {
        value: cdktn.listMapperHcl(cdktn.stringToHclTerraform, false)(this._userIds),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      usernames: {
        value: cdktn.listMapperHcl(cdktn.stringToHclTerraform, false)(this._usernames),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
