-- Verified domains, identity providers per organization and the login broker (same tables as
-- migrations/postgres/011_domains_and_identity_providers.sql).
--
-- An organization is named by (realm, id) (migration 009). On a database that gets migration 009
-- before this one, 009 has already made domain_verifications and identity_providers in this shape,
-- their indexes and the trigger, so they are made here only if missing; on one that got this
-- migration first, 009 rebuilds them into this shape.

-- A verified domain of an organization. One organization per realm may hold a domain's
-- verification (the primary key); a second claimant is refused. An organization lists its domains
-- in organizations.domains; a row here says one of them is verified.
CREATE TABLE IF NOT EXISTS domain_verifications (
  realm              TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  domain             TEXT NOT NULL, -- normalized: lowercase, no trailing dot
  organization_id    TEXT NOT NULL,
  verified_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, domain),
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS domain_verifications_organization ON domain_verifications (realm, organization_id);

-- A domain that leaves an organization's list loses its verification; the domains that stay keep
-- theirs. In the schema, so every way of changing the list keeps the rule.
CREATE TRIGGER IF NOT EXISTS organizations_domains_keep_verifications AFTER UPDATE OF domains ON organizations BEGIN
  DELETE FROM domain_verifications
   WHERE realm = NEW.realm AND organization_id = NEW.id AND domain NOT IN (SELECT value FROM json_each(NEW.domains));
END;

-- Upstream OpenID Connect providers. An unlinked provider (organization_id NULL) stays in the realm
-- and can be linked again; a deleted organization takes its providers with it.
CREATE TABLE IF NOT EXISTS identity_providers (
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  alias             TEXT NOT NULL,
  internal_id       TEXT NOT NULL UNIQUE,
  organization_id   TEXT,
  provider_id       TEXT NOT NULL,
  display_name      TEXT,
  enabled           INTEGER NOT NULL,
  trust_email       INTEGER NOT NULL,
  config            TEXT NOT NULL, -- JSON object of strings, without the client secret
  client_secret     TEXT,          -- sealed (auth/sealed-secrets.ts), NULL for a public client
  created_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, alias),
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS identity_providers_organization ON identity_providers (realm, organization_id);

CREATE TABLE identity_provider_mappers (
  id                TEXT PRIMARY KEY,
  realm             TEXT NOT NULL,
  alias             TEXT NOT NULL,
  name              TEXT NOT NULL,
  mapper_type       TEXT NOT NULL,
  config            TEXT NOT NULL, -- JSON object of strings
  created_timestamp INTEGER NOT NULL,
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE,
  UNIQUE (realm, alias, name)
);

-- Which local user an upstream account is: the provider, the upstream's issuer (so re-pointing a
-- provider at another upstream links nobody by accident) and its subject.
CREATE TABLE federated_identities (
  realm             TEXT NOT NULL,
  alias             TEXT NOT NULL,
  issuer            TEXT NOT NULL,
  subject           TEXT NOT NULL,
  user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, alias, issuer, subject),
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE
);
CREATE INDEX federated_identities_user ON federated_identities (user_id);

-- Sign-ins sent to an upstream and not yet back: found by the SHA-256 of their state, bound to the
-- browser that started them, used once.
CREATE TABLE broker_logins (
  state_hash        TEXT PRIMARY KEY,
  realm             TEXT NOT NULL,
  alias             TEXT NOT NULL,
  browser_hash      TEXT NOT NULL,
  code_verifier     TEXT NOT NULL,
  nonce             TEXT NOT NULL,
  request           TEXT NOT NULL, -- JSON: the authorization request to complete afterwards
  expires_timestamp INTEGER NOT NULL,
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE
);
CREATE INDEX broker_logins_expires ON broker_logins (expires_timestamp);

-- Confidential clients of the code flow: the HMAC of their secret (auth/secrets.ts), NULL for public ones.
ALTER TABLE oidc_clients ADD COLUMN secret_hash TEXT;
