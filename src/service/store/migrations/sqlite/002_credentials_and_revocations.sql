-- Keys the service keeps for itself, and revoked access tokens.
--
-- server_secrets: e.g. the HMAC-SHA-256 key under which API-key secrets are hashed. Created once
-- by the first service that needs it (first writer wins); never leaves the database, never logged.
CREATE TABLE server_secrets (
  name              TEXT PRIMARY KEY,
  value             TEXT NOT NULL,
  created_timestamp INTEGER NOT NULL
);

-- Revoked access tokens (RFC 7009), kept until the token would have expired anyway. seq lets every
-- service process sharing the database read only the revocations it has not seen yet.
CREATE TABLE revoked_tokens (
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  jti               TEXT NOT NULL,
  expires_timestamp INTEGER NOT NULL,
  revoked_timestamp INTEGER NOT NULL,
  UNIQUE (realm, jti)
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_timestamp);
