/**
 * The service as a client of an organization's upstream OpenID Connect provider, on openid-client:
 * discovery, the authorization URL (code flow with PKCE S256, `state` and `nonce`), and the code
 * exchange, whose ID token is checked for issuer, audience, nonce, expiry and its signature against
 * the upstream's JWKS (openid-client's non-repudiation checks, which verify the signature of an ID
 * token even when it comes straight from the token endpoint).
 *
 * Where the upstream is found: `config.metadataDescriptorUrl` (its discovery document), else
 * `config.issuer` + `/.well-known/openid-configuration`. A configured issuer must equal the
 * discovered one. Explicit endpoints (`authorizationUrl`, `tokenUrl`, `jwksUrl`) win over
 * discovered ones. Every endpoint must be https, or http on a loopback host (the rule of
 * `secureUrlProblem`, which also checked the settings when they were saved).
 *
 * Discovered metadata is kept for {@link METADATA_TTL_MS} of the service's clock, and each
 * upstream's keys as openid-client caches them, so a sign-in costs one token request upstream.
 */
import * as oidc from 'openid-client';
import { DEFAULT_UPSTREAM_SCOPE, IDP_CONFIG, secureUrlProblem } from '../../api';

/** How long discovered metadata is used before it is fetched again. */
export const METADATA_TTL_MS = 5 * 60_000;
/** How long one request to an upstream may take. */
const UPSTREAM_TIMEOUT_SECONDS = 10;
/** Discovery path appended to an issuer (OpenID Connect Discovery §4). */
const WELL_KNOWN = '/.well-known/openid-configuration';

/** A failure to talk to the upstream, or an answer of it that was refused; the message is safe to show. */
export class UpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/** What the service needs to act as a client of one upstream. */
export interface UpstreamClientSettings {
  /** Keycloak's config strings of the provider (client id, issuer or discovery URL, endpoints, scope). */
  config: Readonly<Record<string, string>>;
  /** The client secret (opened), or undefined for a public client. */
  clientSecret: string | undefined;
}

/** The verified outcome of a code exchange. */
export interface UpstreamIdentity {
  /** The upstream's issuer, as discovered and as the ID token carries it. */
  issuer: string;
  /** The ID token's claims, every check passed. */
  claims: oidc.IDToken;
}

/** A short, safe sentence for an openid-client or network failure. */
function describe(error: unknown): string {
  if (error instanceof UpstreamError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${message}${cause}`.replace(/\s+/g, ' ').slice(0, 300);
}

/** Upstream clients of one service: discovery and key caches, the service's clock. */
export class UpstreamClients {
  private readonly metadata = new Map<string, { server: oidc.ServerMetadata; expires: number }>();
  private readonly jwks = new Map<string, oidc.ExportedJWKSCache>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The discovery document's URL for a provider's settings. */
  private discoveryUrl(config: Readonly<Record<string, string>>): string {
    const explicit = config[IDP_CONFIG.discoveryUrl];
    if (explicit) return explicit;
    return `${config[IDP_CONFIG.issuer]!.replace(/\/+$/, '')}${WELL_KNOWN}`;
  }

  /** The upstream's metadata: discovered (cached), the configured issuer checked, explicit endpoints applied. */
  private async serverMetadata(config: Readonly<Record<string, string>>): Promise<oidc.ServerMetadata> {
    const url = this.discoveryUrl(config);
    let cached = this.metadata.get(url);
    if (!cached || cached.expires <= this.now()) {
      let discovered: oidc.Configuration;
      try {
        const insecure = new URL(url).protocol === 'http:';
        discovered = await oidc.discovery(new URL(url), config[IDP_CONFIG.clientId] ?? '', undefined, undefined, {
          timeout: UPSTREAM_TIMEOUT_SECONDS,
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        });
      } catch (error) {
        throw new UpstreamError(`The identity provider's discovery document at ${url} could not be read (${describe(error)}).`, { cause: error });
      }
      cached = { server: { ...discovered.serverMetadata() }, expires: this.now() + METADATA_TTL_MS };
      this.metadata.set(url, cached);
    }
    const issuer = config[IDP_CONFIG.issuer];
    if (issuer && cached.server.issuer !== issuer) {
      throw new UpstreamError(`The identity provider's discovery document names the issuer ${cached.server.issuer}, not the configured ${issuer}.`);
    }
    const server: oidc.ServerMetadata = {
      ...cached.server,
      authorization_endpoint: config[IDP_CONFIG.authorizationUrl] || cached.server.authorization_endpoint,
      token_endpoint: config[IDP_CONFIG.tokenUrl] || cached.server.token_endpoint,
      jwks_uri: config[IDP_CONFIG.jwksUrl] || cached.server.jwks_uri,
    };
    for (const [name, endpoint] of [
      ['authorization endpoint', server.authorization_endpoint],
      ['token endpoint', server.token_endpoint],
      ['JWKS', server.jwks_uri],
    ] as const) {
      if (!endpoint) throw new UpstreamError(`The identity provider names no ${name}.`);
      const problem = secureUrlProblem(endpoint);
      if (problem) throw new UpstreamError(`The identity provider's ${name} ${endpoint} ${problem}.`);
    }
    return server;
  }

  /** A configured openid-client for one use, on the service's clock. */
  private async configuration(settings: UpstreamClientSettings): Promise<oidc.Configuration> {
    const server = await this.serverMetadata(settings.config);
    const method = settings.config[IDP_CONFIG.clientAuthMethod];
    const auth =
      settings.clientSecret === undefined ? oidc.None() : method === 'client_secret_basic' ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.ClientSecretPost(settings.clientSecret);
    // openid-client reads the machine's clock; the skew makes it read the service's (tests step it).
    const skew = Math.round((this.now() - Date.now()) / 1000);
    const config = new oidc.Configuration(server, settings.config[IDP_CONFIG.clientId] ?? '', { [oidc.clockSkew]: skew }, auth);
    config.timeout = UPSTREAM_TIMEOUT_SECONDS;
    const endpoints = [server.authorization_endpoint, server.token_endpoint, server.jwks_uri];
    if (endpoints.some((endpoint) => endpoint?.startsWith('http:'))) oidc.allowInsecureRequests(config);
    oidc.enableNonRepudiationChecks(config);
    const keys = this.jwks.get(server.issuer);
    if (keys) oidc.setJwksCache(config, keys);
    return config;
  }

  /** The upstream authorization URL for a sign-in (PKCE S256, `state`, `nonce`). */
  async authorizationUrl(
    settings: UpstreamClientSettings,
    request: { redirectUri: string; state: string; nonce: string; codeVerifier: string; loginHint?: string },
  ): Promise<URL> {
    const config = await this.configuration(settings);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      response_type: 'code',
      scope: settings.config[IDP_CONFIG.defaultScope] || DEFAULT_UPSTREAM_SCOPE,
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      ...(request.loginHint ? { login_hint: request.loginHint } : {}),
    });
  }

  /**
   * Exchanges the code of the upstream's answer (`callbackUrl`, the broker's callback as the
   * browser reached it) and checks everything: `state`, the answer's `iss` (RFC 9207), then the ID
   * token's signature (JWKS), issuer, audience, expiry and `nonce`. Throws {@link UpstreamError}.
   */
  async exchange(settings: UpstreamClientSettings, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<UpstreamIdentity> {
    const config = await this.configuration(settings);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new UpstreamError(`The identity provider's answer was refused (${describe(error)}).`, { cause: error });
    } finally {
      const keys = oidc.getJwksCache(config);
      if (keys) this.jwks.set(config.serverMetadata().issuer, keys);
    }
    const claims = tokens.claims();
    if (!claims) throw new UpstreamError('The identity provider answered without an ID token.');
    return { issuer: config.serverMetadata().issuer, claims };
  }
}
