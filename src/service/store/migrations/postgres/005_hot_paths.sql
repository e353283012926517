-- The service's hot paths (same changes as migrations/sqlite/005_hot_paths.sql, plus the realm
-- change counter that SQLite does not need: there, PRAGMA data_version tells a connection that
-- another one committed).
--
-- Member lists walk this index in their sort order (membership creation, seq): a page is read
-- from its first row on, never sorted, and a page after a remembered one starts at that page's
-- last seq (store/member-pages.ts) instead of skipping every row before it.
CREATE INDEX memberships_organization_order ON memberships (organization_id, seq);

-- Bumped by every membership added to or removed from the organization (also by cascades), so
-- that a remembered page boundary is used only while the list it was taken from is unchanged;
-- after any change, the page is found by position again, exactly as before this index existed.
ALTER TABLE organizations ADD COLUMN members_version bigint NOT NULL DEFAULT 0;
CREATE FUNCTION memberships_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE organizations SET members_version = members_version + 1 WHERE id = OLD.organization_id;
  ELSE
    UPDATE organizations SET members_version = members_version + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER memberships_version AFTER INSERT OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION memberships_bump_version();

-- One row counting the statements that changed realms, from any instance: every instance caches
-- realms and reads this counter at most once per recheck interval to notice another's change.
CREATE TABLE realm_changes (
  only_row boolean NOT NULL DEFAULT true CHECK (only_row),
  version  bigint NOT NULL,
  CONSTRAINT realm_changes_pkey PRIMARY KEY (only_row)
);
INSERT INTO realm_changes (version) VALUES (0);
CREATE FUNCTION realms_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE realm_changes SET version = version + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER realms_changed AFTER INSERT OR UPDATE OR DELETE ON realms
  FOR EACH STATEMENT EXECUTE FUNCTION realms_count_change();
