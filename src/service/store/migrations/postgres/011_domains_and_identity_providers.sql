-- Verified domains, identity providers per organization and the login broker (same tables as
-- migrations/sqlite/011_domains_and_identity_providers.sql).
--
-- An organization is named by (realm, id) (migration 009). On a database that got this migration
-- before 009, 009 gives these tables the same keys and indexes.

-- A verified domain of an organization. One organization per realm may hold a domain's
-- verification (the primary key); a second claimant is refused.
CREATE TABLE domain_verifications (
  realm              text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  domain             text COLLATE "C" NOT NULL,
  organization_id    text COLLATE "C" NOT NULL,
  verified_timestamp bigint NOT NULL,
  CONSTRAINT domain_verifications_pkey PRIMARY KEY (realm, domain),
  CONSTRAINT domain_verifications_organization_fkey
    FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
CREATE INDEX domain_verifications_organization ON domain_verifications (realm, organization_id);

-- A domain that leaves an organization's list loses its verification; the domains that stay keep theirs.
CREATE FUNCTION keep_listed_domain_verifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM domain_verifications
   WHERE realm = NEW.realm AND organization_id = NEW.id
     AND domain NOT IN (SELECT json_array_elements_text(NEW.domains));
  RETURN NULL;
END;
$$;
CREATE TRIGGER organizations_domains_keep_verifications AFTER UPDATE OF domains ON organizations
  FOR EACH ROW EXECUTE FUNCTION keep_listed_domain_verifications();

CREATE TABLE identity_providers (
  realm             text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  alias             text COLLATE "C" NOT NULL,
  internal_id       text COLLATE "C" NOT NULL,
  organization_id   text COLLATE "C",
  provider_id       text COLLATE "C" NOT NULL,
  display_name      text,
  enabled           boolean NOT NULL,
  trust_email       boolean NOT NULL,
  config            json NOT NULL,
  client_secret     text,
  created_timestamp bigint NOT NULL,
  CONSTRAINT identity_providers_pkey PRIMARY KEY (realm, alias),
  CONSTRAINT identity_providers_internal_id UNIQUE (internal_id),
  CONSTRAINT identity_providers_organization_fkey
    FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
CREATE INDEX identity_providers_organization ON identity_providers (realm, organization_id);

CREATE TABLE identity_provider_mappers (
  id                text COLLATE "C" NOT NULL,
  realm             text COLLATE "C" NOT NULL,
  alias             text COLLATE "C" NOT NULL,
  name              text COLLATE "C" NOT NULL,
  mapper_type       text COLLATE "C" NOT NULL,
  config            json NOT NULL,
  created_timestamp bigint NOT NULL,
  CONSTRAINT identity_provider_mappers_pkey PRIMARY KEY (id),
  CONSTRAINT identity_provider_mappers_name UNIQUE (realm, alias, name),
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE
);

CREATE TABLE federated_identities (
  realm             text COLLATE "C" NOT NULL,
  alias             text COLLATE "C" NOT NULL,
  issuer            text COLLATE "C" NOT NULL,
  subject           text COLLATE "C" NOT NULL,
  user_id           text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_timestamp bigint NOT NULL,
  CONSTRAINT federated_identities_pkey PRIMARY KEY (realm, alias, issuer, subject),
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE
);
CREATE INDEX federated_identities_user ON federated_identities (user_id);

CREATE TABLE broker_logins (
  state_hash        text COLLATE "C" NOT NULL,
  realm             text COLLATE "C" NOT NULL,
  alias             text COLLATE "C" NOT NULL,
  browser_hash      text COLLATE "C" NOT NULL,
  code_verifier     text NOT NULL,
  nonce             text NOT NULL,
  request           json NOT NULL,
  expires_timestamp bigint NOT NULL,
  CONSTRAINT broker_logins_pkey PRIMARY KEY (state_hash),
  FOREIGN KEY (realm, alias) REFERENCES identity_providers (realm, alias) ON DELETE CASCADE
);
CREATE INDEX broker_logins_expires ON broker_logins (expires_timestamp);

ALTER TABLE oidc_clients ADD COLUMN secret_hash text;
