/**
 * The `OrgAdminProvider` construct: the orgadmin provider block of a stack, with camel-case props
 * for every provider setting and the environment variables each falls back to. At synth it also
 * gives a fresh output directory the starter lock file of `./lock-file` when the provider is
 * installed locally.
 */
import { join } from 'node:path';
import type { Construct } from 'constructs';
import { OrgadminProvider } from './gen/provider';
import { writeStarterLockFile } from './lock-file';
import { addCustomSynthesis, TerraformStack, type ISynthesisSession } from './toolkit';
import { Problems, checkBaseUrl, checkMaxRetries, checkRealm, checkRequestTimeout } from './validation';

/**
 * Props of {@link OrgAdminProvider}. Every setting may be left out and given through the
 * environment of the `terraform` process instead, which keeps secrets out of `cdk.tf.json`.
 */
export interface OrgAdminProviderProps {
  /**
   * Base address of the Organization Administration Service, e.g. `https://orgs.example.com`.
   * @default `ORGADMIN_BASE_URL`
   */
  readonly baseUrl?: string;
  /**
   * Realm the API key belongs to, and the default realm of every resource: a realm name (one
   * lowercase DNS label), as the service requires.
   * @default `ORGADMIN_REALM`, then the first DNS label of the base URL's host
   */
  readonly realm?: string;
  /**
   * API key client id (client-credentials grant).
   * @default `ORGADMIN_CLIENT_ID`
   */
  readonly clientId?: string;
  /**
   * API key client secret. Written into `cdk.tf.json` in clear when given here: prefer the
   * environment variable, or a `TerraformVariable` marked sensitive.
   * @default `ORGADMIN_CLIENT_SECRET`
   */
  readonly clientSecret?: string;
  /**
   * A ready access token, instead of an API key (it is not refreshed).
   * @default `ORGADMIN_ACCESS_TOKEN`
   */
  readonly accessToken?: string;
  /**
   * Limit of one HTTP request attempt, in seconds (above 0, at most 3600).
   * @default `ORGADMIN_REQUEST_TIMEOUT`, then 30
   */
  readonly requestTimeout?: number;
  /**
   * Retries of an idempotent request after a 429, 502, 503, 504 or a network error (a whole number from 0 to 20).
   * @default `ORGADMIN_MAX_RETRIES`, then 3
   */
  readonly maxRetries?: number;
  /**
   * Alias, for a second configuration of the provider in the same stack (another realm).
   * @default no alias: the stack's default orgadmin provider
   */
  readonly alias?: string;
}

/**
 * The orgadmin provider (`registry.terraform.io/orgadmin/orgadmin`). A stack needs one before any
 * organization, membership or user look-up; cdktf refuses to synthesize otherwise.
 *
 * When the stack is synthesized into an output directory whose `.terraform.lock.hcl` does not lock
 * the required provider version (a fresh one has none) and that version is installed in
 * `~/.terraform.d/plugins` (`orgadmin provider install`), it writes the provider's lock entry
 * naming that version, without checksums, so that `cdktf deploy`/`diff` (and cdktn's) skip their
 * `terraform providers lock` step, which cannot read local mirrors; `terraform init` records the
 * installed package's checksum into it.
 *
 * @example
 * new OrgAdminProvider(stack, 'orgadmin', { baseUrl: 'https://orgs.example.com', realm: 'acme' });
 * // client id and secret from ORGADMIN_CLIENT_ID / ORGADMIN_CLIENT_SECRET
 */
export class OrgAdminProvider extends OrgadminProvider {
  /** @throws ConstructValidationError listing every problem with the props. */
  constructor(scope: Construct, id: string, props: OrgAdminProviderProps = {}) {
    const problems = new Problems();
    checkBaseUrl(props.baseUrl, problems);
    checkRealm(props.realm, problems);
    checkRequestTimeout(props.requestTimeout, problems);
    checkMaxRetries(props.maxRetries, problems);
    if (props.clientSecret !== undefined && props.accessToken !== undefined) {
      // Values are secrets: name the props, never quote them.
      problems.add('clientSecret and accessToken are two ways to authenticate; give one of them.');
    }
    // Validation runs before the construct joins the tree, so a bad provider leaves no trace.
    problems.throwIfAny(`${scope.node.path}/${id}`);
    super(scope, id, {
      baseUrl: props.baseUrl,
      realm: props.realm,
      clientId: props.clientId,
      clientSecret: props.clientSecret,
      accessToken: props.accessToken,
      requestTimeout: props.requestTimeout,
      maxRetries: props.maxRetries,
      alias: props.alias,
    });
    addCustomSynthesis(this, { onSynthesize: (session) => this.writeLockFile(session) });
  }

  /** Gives the stack's output directory the starter lock file when it needs one (see `./lock-file`). */
  private writeLockFile(session: ISynthesisSession): void {
    const version = this.terraformGeneratorMetadata?.providerVersion;
    const address = this.terraformProviderSource;
    // The bindings always carry both; a provider without them has nothing to lock.
    if (version === undefined || address === undefined) return;
    const stackDir = join(session.outdir, session.manifest.forStack(TerraformStack.of(this)).workingDirectory);
    writeStarterLockFile(stackDir, { address, version });
  }
}
