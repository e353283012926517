-- Initial schema of the PostgreSQL store; the same tables, keys and cascades as the SQLite schema
-- (migrations/sqlite/001_initial.sql), so both stores behave alike.
--
-- Text columns use the "C" collation: ordering is by code point and lower() folds ASCII only,
-- exactly as in SQLite, whatever locale the database was created with. Uniqueness lives here (not
-- in the code) so that concurrent requests, also from several service instances, cannot create
-- duplicates; the constraint names are what PostgresStore maps to StoreConflictError.
-- Timestamps are milliseconds since the epoch (bigint). JSON columns use `json`, not `jsonb`, so
-- attribute keys come back in the order they were written.

CREATE TABLE realms (
  name                   text COLLATE "C" NOT NULL,
  enabled                boolean NOT NULL DEFAULT true,
  token_lifetime_seconds integer NOT NULL,
  create_admin_user      boolean NOT NULL DEFAULT true,
  created_timestamp      bigint NOT NULL,
  private_key_pem        text NOT NULL,
  public_key_pem         text NOT NULL,
  key_id                 text NOT NULL,
  CONSTRAINT realms_pkey PRIMARY KEY (name)
);

CREATE TABLE organizations (
  id                text COLLATE "C" NOT NULL,
  realm             text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  name              text COLLATE "C" NOT NULL,
  display_name      text COLLATE "C",
  url               text COLLATE "C",
  domains           json NOT NULL DEFAULT '[]', -- array of lowercase DNS names
  attributes        json NOT NULL DEFAULT '{}', -- object: key -> array of strings
  created_timestamp bigint NOT NULL,
  CONSTRAINT organizations_pkey PRIMARY KEY (id),
  CONSTRAINT organizations_realm_name UNIQUE (realm, name)
);

CREATE TABLE users (
  id                    text COLLATE "C" NOT NULL,
  realm                 text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  username              text COLLATE "C" NOT NULL,
  email                 text COLLATE "C",
  first_name            text COLLATE "C",
  last_name             text COLLATE "C",
  email_verified        boolean NOT NULL DEFAULT false,
  enabled               boolean NOT NULL DEFAULT true,
  created_timestamp     bigint NOT NULL,
  kind                  text NOT NULL CHECK (kind IN ('user', 'service-account', 'org-admin')),
  -- An organization's default admin user goes away with the organization.
  admin_of_organization text COLLATE "C" REFERENCES organizations (id) ON DELETE CASCADE,
  password_hash         text,
  CONSTRAINT users_pkey PRIMARY KEY (id)
);
CREATE UNIQUE INDEX users_realm_username ON users (realm, lower(username));
CREATE UNIQUE INDEX users_realm_email ON users (realm, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX users_admin_of_organization ON users (admin_of_organization) WHERE admin_of_organization IS NOT NULL;

CREATE TABLE api_keys (
  -- Insertion order: keys created in the same millisecond still list in the order they were made.
  seq                     bigint GENERATED ALWAYS AS IDENTITY,
  client_id               text COLLATE "C" NOT NULL,
  realm                   text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  name                    text COLLATE "C" NOT NULL,
  secret_hash             text NOT NULL,
  permissions             json NOT NULL, -- array of permission names
  service_account_user_id text COLLATE "C" NOT NULL REFERENCES users (id),
  created_timestamp       bigint NOT NULL,
  revoked_timestamp       bigint,
  CONSTRAINT api_keys_pkey PRIMARY KEY (client_id)
);
-- A revoked key frees its name for a replacement.
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (realm, name) WHERE revoked_timestamp IS NULL;
CREATE INDEX api_keys_realm_order ON api_keys (realm, created_timestamp, seq);

CREATE TABLE memberships (
  -- Monotonic: members are listed in the order they joined.
  seq               bigint GENERATED ALWAYS AS IDENTITY,
  organization_id   text COLLATE "C" NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id           text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_timestamp bigint NOT NULL,
  CONSTRAINT memberships_pkey PRIMARY KEY (seq),
  CONSTRAINT memberships_organization_user UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);
