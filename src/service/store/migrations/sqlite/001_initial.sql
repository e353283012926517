-- Initial schema of the SQLite store. Uniqueness lives here (not in the code) so that concurrent
-- requests cannot create duplicates.

CREATE TABLE realms (
  name                   TEXT PRIMARY KEY,
  enabled                INTEGER NOT NULL DEFAULT 1,
  token_lifetime_seconds INTEGER NOT NULL,
  create_admin_user      INTEGER NOT NULL DEFAULT 1,
  created_timestamp      INTEGER NOT NULL,
  private_key_pem        TEXT NOT NULL,
  public_key_pem         TEXT NOT NULL,
  key_id                 TEXT NOT NULL
);

CREATE TABLE organizations (
  id                TEXT PRIMARY KEY,
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  display_name      TEXT,
  url               TEXT,
  domains           TEXT NOT NULL DEFAULT '[]', -- JSON array of lowercase DNS names
  attributes        TEXT NOT NULL DEFAULT '{}', -- JSON object: key -> array of strings
  created_timestamp INTEGER NOT NULL,
  UNIQUE (realm, name)
);

CREATE TABLE users (
  id                    TEXT PRIMARY KEY,
  realm                 TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  username              TEXT NOT NULL,
  email                 TEXT,
  first_name            TEXT,
  last_name             TEXT,
  email_verified        INTEGER NOT NULL DEFAULT 0,
  enabled               INTEGER NOT NULL DEFAULT 1,
  created_timestamp     INTEGER NOT NULL,
  kind                  TEXT NOT NULL CHECK (kind IN ('user', 'service-account', 'org-admin')),
  -- An organization's default admin user goes away with the organization.
  admin_of_organization TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  password_hash         TEXT
);
CREATE UNIQUE INDEX users_realm_username ON users (realm, lower(username));
CREATE UNIQUE INDEX users_realm_email ON users (realm, lower(email)) WHERE email IS NOT NULL;

CREATE TABLE api_keys (
  client_id               TEXT PRIMARY KEY,
  realm                   TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  name                    TEXT NOT NULL,
  secret_hash             TEXT NOT NULL,
  permissions             TEXT NOT NULL, -- JSON array of permission names
  service_account_user_id TEXT NOT NULL REFERENCES users(id),
  created_timestamp       INTEGER NOT NULL,
  revoked_timestamp       INTEGER
);
-- A revoked key frees its name for a replacement.
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (realm, name) WHERE revoked_timestamp IS NULL;

CREATE TABLE memberships (
  -- Monotonic: members are listed in the order they joined.
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id   TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);
