-- A realm's own rate limit, set in the dashboard's Realm settings (rows.ts reads and writes it):
-- both columns NULL: the service default (`orgadmin serve --rate-limit`);
-- rate_limit_requests 0 (window NULL): no rate limit for the realm;
-- otherwise at most rate_limit_requests per rate_limit_window_seconds per client (or end user).
-- SQLite cannot add a table constraint to an existing table; the check of the pair sits on the
-- second column (SQLite lets a column's CHECK read the other columns of the row).
ALTER TABLE realms ADD COLUMN rate_limit_requests INTEGER;
ALTER TABLE realms ADD COLUMN rate_limit_window_seconds INTEGER CHECK (
  (rate_limit_requests IS NULL AND rate_limit_window_seconds IS NULL)
  OR (rate_limit_requests IS NOT NULL AND rate_limit_requests = 0 AND rate_limit_window_seconds IS NULL)
  OR (rate_limit_requests IS NOT NULL AND rate_limit_requests >= 1 AND rate_limit_window_seconds IS NOT NULL AND rate_limit_window_seconds >= 1)
);
