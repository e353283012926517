-- The organizations claim (same change as migrations/sqlite/008_organizations_claim.sql): whether
-- the tokens users get carry `organizations` (organization id -> name and the user's roles there,
-- the hosted service's "Organization Role" token mapper). Off unless the realm turns it on for
-- every client, or a registered login client for its own tokens.
ALTER TABLE realms ADD COLUMN organizations_claim boolean NOT NULL DEFAULT false;
ALTER TABLE oidc_clients ADD COLUMN organizations_claim boolean NOT NULL DEFAULT false;
