-- Keys the service keeps for itself, and revoked access tokens (same tables as
-- migrations/sqlite/002_credentials_and_revocations.sql).
--
-- server_secrets: e.g. the HMAC-SHA-256 key under which API-key secrets are hashed. Created once
-- by the first service that needs it (first writer wins); never leaves the database, never logged.
CREATE TABLE server_secrets (
  name              text COLLATE "C" NOT NULL,
  value             text NOT NULL,
  created_timestamp bigint NOT NULL,
  CONSTRAINT server_secrets_pkey PRIMARY KEY (name)
);

-- Revoked access tokens (RFC 7009), kept until the token would have expired anyway. seq lets every
-- service instance sharing the database read only the revocations it has not seen yet.
CREATE TABLE revoked_tokens (
  seq               bigserial NOT NULL,
  realm             text COLLATE "C" NOT NULL REFERENCES realms (name) ON DELETE CASCADE,
  jti               text COLLATE "C" NOT NULL,
  expires_timestamp bigint NOT NULL,
  revoked_timestamp bigint NOT NULL,
  CONSTRAINT revoked_tokens_pkey PRIMARY KEY (seq),
  CONSTRAINT revoked_tokens_realm_jti UNIQUE (realm, jti)
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_timestamp);
