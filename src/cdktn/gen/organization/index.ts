// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface OrganizationConfig extends cdktn.TerraformMetaArguments {
  /**
  * Custom attributes: each name holds a list of strings, e.g. `{ tier = ["gold"] }`. Left out: not managed (attributes set outside Terraform are kept, not reported as drift, and sent back unchanged on update); the attribute still reads the organization's current attributes. Set to `{}` to remove every attribute.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#attributes Organization#attributes}
  */
  readonly attributes?: { [key: string]: string[] } | cdktn.IResolvable;
  /**
  * A human-friendly name shown instead of `name`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#display_name Organization#display_name}
  */
  readonly displayName?: string;
  /**
  * The organization's DNS domains, e.g. `["example.com"]`. Compared and sent in the form the service stores (lowercase, without surrounding spaces or a trailing dot); a domain that differs from the service's only in that form is not a change, and two such spellings of one domain are an error. Left out: not managed (domains set outside Terraform are kept and not reported as drift); the attribute still reads the organization's current domains. Set to `[]` to remove every domain.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#domains Organization#domains}
  */
  readonly domains?: string[];
  /**
  * The organization's name: unique in the realm, 1–255 characters. Changing it renames the organization in place.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#name Organization#name}
  */
  readonly name: string;
  /**
  * The realm (project) the object lives in. Defaults to the provider's `realm`. Changing it replaces the object: it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another realm usually need a second provider configuration (`alias`) with a key of that realm.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#realm Organization#realm}
  */
  readonly realm?: string;
  /**
  * The organization's web address: an absolute `http` or `https` URL of at most 2048 characters.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#url Organization#url}
  */
  readonly url?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization orgadmin_organization}
*/
export class Organization extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_organization";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a Organization resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Organization to import
  * @param importFromId The id of the existing Organization that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Organization to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin_organization", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/organization orgadmin_organization} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OrganizationConfig
  */
  public constructor(scope: Construct, id: string, config: OrganizationConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_organization',
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
    this._attributes = config.attributes;
    this._displayName = config.displayName;
    this._domains = config.domains;
    this._name = config.name;
    this._realm = config.realm;
    this._url = config.url;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // attributes - computed: true, optional: true, required: false
  private _attributes?: { [key: string]: string[] } | cdktn.IResolvable; 
  public get attributes() {
    return this.interpolationForAttribute('attributes');
  }
  public set attributes(value: { [key: string]: string[] } | cdktn.IResolvable) {
    this._attributes = value;
  }
  public resetAttributes() {
    this._attributes = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get attributesInput() {
    return this._attributes;
  }

  // display_name - computed: false, optional: true, required: false
  private _displayName?: string; 
  public get displayName() {
    return this.getStringAttribute('display_name');
  }
  public set displayName(value: string) {
    this._displayName = value;
  }
  public resetDisplayName() {
    this._displayName = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get displayNameInput() {
    return this._displayName;
  }

  // domains - computed: true, optional: true, required: false
  private _domains?: string[]; 
  public get domains() {
    return cdktn.Fn.tolist(this.getListAttribute('domains'));
  }
  public set domains(value: string[]) {
    this._domains = value;
  }
  public resetDomains() {
    this._domains = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get domainsInput() {
    return this._domains;
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

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      attributes: cdktn.hashMapper(cdktn.listMapper(cdktn.stringToTerraform, false))(this._attributes),
      display_name: cdktn.stringToTerraform(this._displayName),
      domains: cdktn.listMapper(cdktn.stringToTerraform, false)(this._domains),
      name: cdktn.stringToTerraform(this._name),
      realm: cdktn.stringToTerraform(this._realm),
      url: cdktn.stringToTerraform(this._url),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      attributes: {
        value: cdktn.hashMapperHcl(cdktn.listMapperHcl(cdktn.stringToHclTerraform, false))(this._attributes),
        isBlock: false,
        type: "map",
        storageClassType: "stringListMap",
      },
      display_name: {
        value: cdktn.stringToHclTerraform(this._displayName),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      domains: {
        value: cdktn.listMapperHcl(cdktn.stringToHclTerraform, false)(this._domains),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      name: {
        value: cdktn.stringToHclTerraform(this._name),
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
      url: {
        value: cdktn.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
