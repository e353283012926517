// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface WebhookConfig extends cdktf.TerraformMetaArguments {
  /**
  * Whether events are delivered. Default `true`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#enabled Webhook#enabled}
  */
  readonly enabled?: boolean | cdktf.IResolvable;
  /**
  * Event-type filters: exact types or `*` for any run of characters, e.g. `["admin.ORGANIZATION-*", "admin.ORGANIZATION_MEMBERSHIP-*", "access.LOGIN_ERROR"]`. Default `["*"]`, every event.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#event_types Webhook#event_types}
  */
  readonly eventTypes?: string[];
  /**
  * The realm (project) the object lives in. Defaults to the provider's `realm`. Changing it replaces the object: it is created in the new realm and deleted from the old one. API keys belong to one realm, so objects of another realm usually need a second provider configuration (`alias`) with a key of that realm.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#realm Webhook#realm}
  */
  readonly realm?: string;
  /**
  * The signing secret, 1 to 1024 characters (write-only: never stored in plan or state). Sent on create and when `secret_wo_version` changes. Left out: a random one is generated on create.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#secret_wo Webhook#secret_wo}
  */
  readonly secretWo?: string;
  /**
  * Any number; changing it sends `secret_wo` to the service again (how a new secret is rolled out).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#secret_wo_version Webhook#secret_wo_version}
  */
  readonly secretWoVersion?: number;
  /**
  * Where events are posted: an absolute `http` or `https` URL. The service refuses loopback, link-local and private addresses unless it runs with `--allow-private-webhooks`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#url Webhook#url}
  */
  readonly url: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook orgadmin_webhook}
*/
export class Webhook extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin_webhook";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Webhook resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Webhook to import
  * @param importFromId The id of the existing Webhook that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Webhook to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin_webhook", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs/resources/webhook orgadmin_webhook} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options WebhookConfig
  */
  public constructor(scope: Construct, id: string, config: WebhookConfig) {
    super(scope, id, {
      terraformResourceType: 'orgadmin_webhook',
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
    this._enabled = config.enabled;
    this._eventTypes = config.eventTypes;
    this._realm = config.realm;
    this._secretWo = config.secretWo;
    this._secretWoVersion = config.secretWoVersion;
    this._url = config.url;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // enabled - computed: true, optional: true, required: false
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  public resetEnabled() {
    this._enabled = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }

  // event_types - computed: true, optional: true, required: false
  private _eventTypes?: string[]; 
  public get eventTypes() {
    return cdktf.Fn.tolist(this.getListAttribute('event_types'));
  }
  public set eventTypes(value: string[]) {
    this._eventTypes = value;
  }
  public resetEventTypes() {
    this._eventTypes = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get eventTypesInput() {
    return this._eventTypes;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
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

  // secret_wo - computed: false, optional: true, required: false
  private _secretWo?: string; 
  public get secretWo() {
    return this.getStringAttribute('secret_wo');
  }
  public set secretWo(value: string) {
    this._secretWo = value;
  }
  public resetSecretWo() {
    this._secretWo = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secretWoInput() {
    return this._secretWo;
  }

  // secret_wo_version - computed: false, optional: true, required: false
  private _secretWoVersion?: number; 
  public get secretWoVersion() {
    return this.getNumberAttribute('secret_wo_version');
  }
  public set secretWoVersion(value: number) {
    this._secretWoVersion = value;
  }
  public resetSecretWoVersion() {
    this._secretWoVersion = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get secretWoVersionInput() {
    return this._secretWoVersion;
  }

  // url - computed: false, optional: false, required: true
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
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
      enabled: cdktf.booleanToTerraform(this._enabled),
      event_types: cdktf.listMapper(cdktf.stringToTerraform, false)(this._eventTypes),
      realm: cdktf.stringToTerraform(this._realm),
      secret_wo: cdktf.stringToTerraform(this._secretWo),
      secret_wo_version: cdktf.numberToTerraform(this._secretWoVersion),
      url: cdktf.stringToTerraform(this._url),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      enabled: {
        value: cdktf.booleanToHclTerraform(this._enabled),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      event_types: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._eventTypes),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      realm: {
        value: cdktf.stringToHclTerraform(this._realm),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      secret_wo: {
        value: cdktf.stringToHclTerraform(this._secretWo),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      secret_wo_version: {
        value: cdktf.numberToHclTerraform(this._secretWoVersion),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      url: {
        value: cdktf.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
