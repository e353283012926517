-- Browser login (authorization code flow with PKCE) and the dashboard.
--
-- users.realm_admin: the per-realm administrator role; administrators may use the dashboard and
-- their tokens carry every API permission. Made by the command line (`orgadmin users grant-admin`).
ALTER TABLE users ADD COLUMN realm_admin INTEGER NOT NULL DEFAULT 0;

-- When an API key last got a token (ms since the epoch), shown in the dashboard; written at most
-- once a minute per key.
ALTER TABLE api_keys ADD COLUMN last_used_timestamp INTEGER;

-- Registered public OpenID Connect clients of a realm and their exact redirect URIs.
CREATE TABLE oidc_clients (
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  client_id         TEXT NOT NULL,
  name              TEXT NOT NULL,
  redirect_uris     TEXT NOT NULL, -- JSON array of absolute URIs, compared exactly
  created_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, client_id)
);

-- Authorization codes: short-lived and single-use. Only the SHA-256 of the code is kept; the row
-- is deleted by the one exchange that consumes it.
CREATE TABLE authorization_codes (
  code_hash             TEXT PRIMARY KEY,
  realm                 TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  client_id             TEXT NOT NULL,
  redirect_uri          TEXT NOT NULL,
  user_id               TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_challenge        TEXT NOT NULL,
  nonce                 TEXT,
  scope                 TEXT NOT NULL,
  auth_time             INTEGER NOT NULL,
  expires_timestamp     INTEGER NOT NULL
);
CREATE INDEX authorization_codes_expires ON authorization_codes (expires_timestamp);
