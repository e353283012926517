// https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface OrgadminProviderConfig {
  /**
  * A user's access token, used as is instead of an API key (it is not renewed: it must outlive the run). Falls back to `ORGADMIN_ACCESS_TOKEN`. Excludes `client_id` and `client_secret`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#access_token OrgadminProvider#access_token}
  */
  readonly accessToken?: string;
  /**
  * The service's base address, e.g. `https://acme.example.com` (absolute `http` or `https` URL). Falls back to `ORGADMIN_BASE_URL`. Required (here or in the environment).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#base_url OrgadminProvider#base_url}
  */
  readonly baseUrl?: string;
  /**
  * The API key's client ID. Falls back to `ORGADMIN_CLIENT_ID`. Needs `client_secret`; excludes `access_token`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#client_id OrgadminProvider#client_id}
  */
  readonly clientId?: string;
  /**
  * The API key's secret. Falls back to `ORGADMIN_CLIENT_SECRET` (preferred: keep secrets out of configuration files). Never shown in plans, logs or error messages.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#client_secret OrgadminProvider#client_secret}
  */
  readonly clientSecret?: string;
  /**
  * How often a failed request is retried with randomized exponential backoff, honouring `Retry-After` (default 5, at most 20): HTTP 429 and 503 with `Retry-After` for every request; 502, 503, 504, timeouts and dropped connections for requests that are safe to repeat (organization creates included: they carry their own id). Falls back to `ORGADMIN_MAX_RETRIES`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#max_retries OrgadminProvider#max_retries}
  */
  readonly maxRetries?: number;
  /**
  * The realm (project) that resources and data sources use unless they set their own. Falls back to `ORGADMIN_REALM`, then to the first label of `base_url`'s host (`https://acme.example.com` → `acme`); required when the host is an IP address or `localhost`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#realm OrgadminProvider#realm}
  */
  readonly realm?: string;
  /**
  * Limit of one HTTP request attempt, in seconds (default 30). Falls back to `ORGADMIN_REQUEST_TIMEOUT`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#request_timeout OrgadminProvider#request_timeout}
  */
  readonly requestTimeout?: number;
  /**
  * Alias name
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#alias OrgadminProvider#alias}
  */
  readonly alias?: string;
}

import { OrgadminProviderFunctions } from '../provider-functions/index';
/**
* Represents a {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs orgadmin}
*/
export class OrgadminProvider extends cdktn.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "orgadmin";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a OrgadminProvider resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the OrgadminProvider to import
  * @param importFromId The id of the existing OrgadminProvider that should be imported. Refer to the {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the OrgadminProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "orgadmin", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/orgadmin/orgadmin/0.1.0/docs orgadmin} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options OrgadminProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: OrgadminProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'orgadmin',
      terraformGeneratorMetadata: {
        providerName: 'orgadmin',
        providerVersion: '0.1.0',
        providerVersionConstraint: '~> 0.1'
      },
      terraformProviderSource: 'registry.terraform.io/orgadmin/orgadmin'
    });
    this._accessToken = config.accessToken;
    this._baseUrl = config.baseUrl;
    this._clientId = config.clientId;
    this._clientSecret = config.clientSecret;
    this._maxRetries = config.maxRetries;
    this._realm = config.realm;
    this._requestTimeout = config.requestTimeout;
    this._alias = config.alias;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // access_token - computed: false, optional: true, required: false
  private _accessToken?: string; 
  public get accessToken() {
    return this._accessToken;
  }
  public set accessToken(value: string | undefined) {
    this._accessToken = value;
  }
  public resetAccessToken() {
    this._accessToken = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get accessTokenInput() {
    return this._accessToken;
  }

  // base_url - computed: false, optional: true, required: false
  private _baseUrl?: string; 
  public get baseUrl() {
    return this._baseUrl;
  }
  public set baseUrl(value: string | undefined) {
    this._baseUrl = value;
  }
  public resetBaseUrl() {
    this._baseUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get baseUrlInput() {
    return this._baseUrl;
  }

  // client_id - computed: false, optional: true, required: false
  private _clientId?: string; 
  public get clientId() {
    return this._clientId;
  }
  public set clientId(value: string | undefined) {
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
    return this._clientSecret;
  }
  public set clientSecret(value: string | undefined) {
    this._clientSecret = value;
  }
  public resetClientSecret() {
    this._clientSecret = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientSecretInput() {
    return this._clientSecret;
  }

  // max_retries - computed: false, optional: true, required: false
  private _maxRetries?: number; 
  public get maxRetries() {
    return this._maxRetries;
  }
  public set maxRetries(value: number | undefined) {
    this._maxRetries = value;
  }
  public resetMaxRetries() {
    this._maxRetries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxRetriesInput() {
    return this._maxRetries;
  }

  // realm - computed: false, optional: true, required: false
  private _realm?: string; 
  public get realm() {
    return this._realm;
  }
  public set realm(value: string | undefined) {
    this._realm = value;
  }
  public resetRealm() {
    this._realm = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get realmInput() {
    return this._realm;
  }

  // request_timeout - computed: false, optional: true, required: false
  private _requestTimeout?: number; 
  public get requestTimeout() {
    return this._requestTimeout;
  }
  public set requestTimeout(value: number | undefined) {
    this._requestTimeout = value;
  }
  public resetRequestTimeout() {
    this._requestTimeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requestTimeoutInput() {
    return this._requestTimeout;
  }

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public get alias() {
    return this._alias;
  }
  public set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // ==========================
  // PROVIDER-DEFINED FUNCTIONS
  // ==========================
  private _functions?: OrgadminProviderFunctions;

  /**
  * Provider-defined functions of the orgadmin provider.
  */
  public get functions(): OrgadminProviderFunctions {
    if (!this._functions) {
      this._functions = new OrgadminProviderFunctions(this.terraformResourceType);
    }
    return this._functions;
  }

  // =========
  // SYNTHESIS
  // =========

  protected synthesizeAttributes(): { [name: string]: any } {
    return {
      access_token: cdktn.stringToTerraform(this._accessToken),
      base_url: cdktn.stringToTerraform(this._baseUrl),
      client_id: cdktn.stringToTerraform(this._clientId),
      client_secret: cdktn.stringToTerraform(this._clientSecret),
      max_retries: cdktn.numberToTerraform(this._maxRetries),
      realm: cdktn.stringToTerraform(this._realm),
      request_timeout: cdktn.numberToTerraform(this._requestTimeout),
      alias: cdktn.stringToTerraform(this._alias),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      access_token: {
        value: cdktn.stringToHclTerraform(this._accessToken),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      base_url: {
        value: cdktn.stringToHclTerraform(this._baseUrl),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
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
      max_retries: {
        value: cdktn.numberToHclTerraform(this._maxRetries),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      realm: {
        value: cdktn.stringToHclTerraform(this._realm),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      request_timeout: {
        value: cdktn.numberToHclTerraform(this._requestTimeout),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      alias: {
        value: cdktn.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
