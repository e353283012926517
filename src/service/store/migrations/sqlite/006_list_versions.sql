-- Organization and user lists page by keyset (same change as migrations/postgres/006_list_versions.sql).
--
-- A realm's organization list is read along the unique (realm, name) index and its user list along
-- the unique (realm, lower(username)) index; a page after a remembered one starts after that
-- page's last sort key (store/page-boundaries.ts) instead of skipping every row before it. A
-- remembered boundary is used only while the list it was taken from is unchanged: this table
-- counts, per realm and list ('organizations', 'users'), every row added or removed (also by a
-- realm's cascade) and every change of a column that orders or filters the list. A list without
-- a row is at 0. Rows outlive a deleted realm on purpose: a realm created again under that name
-- keeps counting up, so no boundary of the old realm can match the new one's list.
CREATE TABLE list_versions (
  realm   TEXT NOT NULL,
  list    TEXT NOT NULL CHECK (list IN ('organizations', 'users')),
  version INTEGER NOT NULL,
  PRIMARY KEY (realm, list)
);

CREATE TRIGGER organizations_added_list_version AFTER INSERT ON organizations BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (NEW.realm, 'organizations', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER organizations_removed_list_version AFTER DELETE ON organizations BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (OLD.realm, 'organizations', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER organizations_changed_list_version AFTER UPDATE OF name, display_name, attributes ON organizations
  WHEN OLD.name IS NOT NEW.name OR OLD.display_name IS NOT NEW.display_name OR OLD.attributes IS NOT NEW.attributes
BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (NEW.realm, 'organizations', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER users_added_list_version AFTER INSERT ON users BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (NEW.realm, 'users', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER users_removed_list_version AFTER DELETE ON users BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (OLD.realm, 'users', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;
CREATE TRIGGER users_changed_list_version AFTER UPDATE OF username, email, first_name, last_name, kind ON users
  WHEN OLD.username IS NOT NEW.username OR OLD.email IS NOT NEW.email OR OLD.first_name IS NOT NEW.first_name
    OR OLD.last_name IS NOT NEW.last_name OR OLD.kind IS NOT NEW.kind
BEGIN
  INSERT INTO list_versions (realm, list, version) VALUES (NEW.realm, 'users', 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = version + 1;
END;
