-- A realm's own rate limit (same columns as migrations/sqlite/004_realm_rate_limit.sql; rows.ts
-- reads and writes them):
-- both columns NULL: the service default (`orgadmin serve --rate-limit`);
-- rate_limit_requests 0 (window NULL): no rate limit for the realm;
-- otherwise at most rate_limit_requests per rate_limit_window_seconds per client (or end user).
ALTER TABLE realms ADD COLUMN rate_limit_requests integer;
ALTER TABLE realms ADD COLUMN rate_limit_window_seconds integer;
ALTER TABLE realms ADD CONSTRAINT realms_rate_limit_shape CHECK (
  (rate_limit_requests IS NULL AND rate_limit_window_seconds IS NULL)
  OR (rate_limit_requests IS NOT NULL AND rate_limit_requests = 0 AND rate_limit_window_seconds IS NULL)
  OR (rate_limit_requests IS NOT NULL AND rate_limit_requests >= 1 AND rate_limit_window_seconds IS NOT NULL AND rate_limit_window_seconds >= 1)
);
