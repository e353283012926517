// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface OrganizationRoleConfig extends cdktn.TerraformMetaArguments {
  /**
  * The role's description. Left out, the role keeps the description it has (a default role its standard one, a new role none); set it to `""` to clear one.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role#description OrganizationRole#description}
  */
  readonly description?: string;
  /**
  * The role's name, unique in the organization (1 to 255 characters, compared exactly, no `/`). A role cannot be renamed: changing the name replaces the role, which takes it away from its holders until they are granted the new one.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role#name OrganizationRole#name}
  */
  readonly name: string;
  /**
  * The organization's id. Changing it replaces the role.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role#organization_id OrganizationRole#organization_id}
  */
  readonly organizationId: string;
  /**
  * The realm (project) the object lives in. Defaults to the provider's `realm`. Changing it replaces the object: it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another realm usually need a second provider configuration (`alias`) with a key of that realm.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role#realm OrganizationRole#realm}
  */
  readonly realm?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role orgadmin_organization_role}
*/
export class OrganizationRole extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_organization_role";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a OrganizationRole resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the OrganizationRole to import
  * @param importFromId The id of the existing OrganizationRole that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the OrganizationRole to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin_organization_role", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization_role orgadmin_organization_role} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OrganizationRoleConfig
  */
  public constructor(scope: Construct, id: string, config: OrganizationRoleConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_organization_role',
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
    this._description = config.description;
    this._name = config.name;
    this._organizationId = config.organizationId;
    this._realm = config.realm;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // default - computed: true, optional: false, required: false
  public get default() {
    return this.getBooleanAttribute('default');
  }

  // description - computed: true, optional: true, required: false
  private _description?: string; 
  public get description() {
    return this.getStringAttribute('description');
  }
  public set description(value: string) {
    this._description = value;
  }
  public resetDescription() {
    this._description = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get descriptionInput() {
    return this._description;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
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

  // role_id - computed: true, optional: false, required: false
  public get roleId() {
    return this.getStringAttribute('role_id');
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      description: cdktn.stringToTerraform(this._description),
      name: cdktn.stringToTerraform(this._name),
      organization_id: cdktn.stringToTerraform(this._organizationId),
      realm: cdktn.stringToTerraform(this._realm),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      description: {
        value: cdktn.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      name: {
        value: cdktn.stringToHclTerraform(this._name),
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
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
