-- Organization lists page by keyset (same change as migrations/postgres/006_organization_list_version.sql).
--
-- A realm's organization list is read along the unique (realm, name) index, and a page after a
-- remembered one starts after that page's last name (store/page-boundaries.ts) instead of skipping
-- every row before it. A remembered boundary is used only while the list it was taken from is
-- unchanged: this counter, one row per realm that has had organizations, is bumped by every
-- organization added or removed (also by a realm's cascade) and by every change of the columns
-- that order or filter the list (name, display name, attributes). A realm without a row is at 0.
-- Rows outlive a deleted realm on purpose: a realm created again under that name keeps counting
-- up, so no boundary of the old realm can match the new one's list.
CREATE TABLE organization_list_versions (
  realm   TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
CREATE TRIGGER organizations_added_list_version AFTER INSERT ON organizations BEGIN
  INSERT INTO organization_list_versions (realm, version) VALUES (NEW.realm, 1)
    ON CONFLICT (realm) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER organizations_removed_list_version AFTER DELETE ON organizations BEGIN
  INSERT INTO organization_list_versions (realm, version) VALUES (OLD.realm, 1)
    ON CONFLICT (realm) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER organizations_changed_list_version AFTER UPDATE OF name, display_name, attributes ON organizations
  WHEN OLD.name IS NOT NEW.name OR OLD.display_name IS NOT NEW.display_name OR OLD.attributes IS NOT NEW.attributes
BEGIN
  INSERT INTO organization_list_versions (realm, version) VALUES (NEW.realm, 1)
    ON CONFLICT (realm) DO UPDATE SET version = version + 1;
END;
