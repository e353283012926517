-- Browser login (authorization code flow with PKCE) and the dashboard (same tables as
-- migrations/sqlite/003_dashboard_and_login.sql).
--
-- users.realm_admin: the per-realm administrator role; administrators may use the dashboard and
-- their tokens carry every API permission. Made by the command line (`orgadmin users grant-admin`).
ALTER TABLE users ADD COLUMN realm_admin boolean NOT NULL DEFAULT false;

-- When an API key last got a token (ms since the epoch), shown in the dashboard; written at most
-- once a minute per key.
ALTER TABLE api_keys ADD COLUMN last_used_timestamp bigint;

-- Registered public OpenID Connect clients of a realm and their exact redirect URIs.
CREATE TABLE oidc_clients (
  realm             text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  client_id         text COLLATE "C" NOT NULL,
  name              text NOT NULL,
  redirect_uris     jsonb NOT NULL, -- array of absolute URIs, compared exactly
  created_timestamp bigint NOT NULL,
  CONSTRAINT oidc_clients_pkey PRIMARY KEY (realm, client_id)
);

-- Authorization codes: short-lived and single-use. Only the SHA-256 of the code is kept; the row
-- is deleted by the one exchange that consumes it.
CREATE TABLE authorization_codes (
  code_hash         text COLLATE "C" NOT NULL,
  realm             text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  client_id         text COLLATE "C" NOT NULL,
  redirect_uri      text NOT NULL,
  user_id           text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_challenge    text NOT NULL,
  nonce             text,
  scope             text NOT NULL,
  auth_time         bigint NOT NULL,
  expires_timestamp bigint NOT NULL,
  CONSTRAINT authorization_codes_pkey PRIMARY KEY (code_hash)
);
CREATE INDEX authorization_codes_expires ON authorization_codes (expires_timestamp);
