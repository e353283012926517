-- The service's hot paths (same changes as migrations/postgres/005_hot_paths.sql).
--
-- Member lists walk this index in their sort order (membership creation, seq): a page is read
-- from its first row on, never sorted, and a page after a remembered one starts at that page's
-- last seq (store/member-pages.ts) instead of skipping every row before it.
CREATE INDEX memberships_organization_order ON memberships (organization_id, seq);

-- Bumped by every membership added to or removed from the organization (also by cascades), so
-- that a remembered page boundary is used only while the list it was taken from is unchanged;
-- after any change, the page is found by position again, exactly as before this index existed.
ALTER TABLE organizations ADD COLUMN members_version INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER memberships_added_version AFTER INSERT ON memberships BEGIN
  UPDATE organizations SET members_version = members_version + 1 WHERE id = NEW.organization_id;
END;
CREATE TRIGGER memberships_removed_version AFTER DELETE ON memberships BEGIN
  UPDATE organizations SET members_version = members_version + 1 WHERE id = OLD.organization_id;
END;
