-- Organization lists page by keyset (same change as migrations/sqlite/006_organization_list_version.sql).
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
  realm   text COLLATE "C" NOT NULL,
  version bigint NOT NULL,
  CONSTRAINT organization_list_versions_pkey PRIMARY KEY (realm)
);

-- The counter is bumped at commit (deferred constraint triggers), so that it is locked only for the
-- moment of a commit, not from the first change to the commit: organizations created at the same
-- time in one realm queue for that moment only. Since a transaction takes the counter's lock last
-- and then waits for nothing else, it cannot be part of a deadlock. Updates count only when a
-- column that orders or filters the list changed: the member list counter's own updates of
-- organizations (members_version) never touch this one.
CREATE FUNCTION organizations_count_list_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_realm text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed_realm := OLD.realm;
  ELSE
    changed_realm := NEW.realm;
  END IF;
  INSERT INTO organization_list_versions AS v (realm, version) VALUES (changed_realm, 1)
    ON CONFLICT (realm) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER organizations_added_or_removed_list_version AFTER INSERT OR DELETE ON organizations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION organizations_count_list_change();
CREATE CONSTRAINT TRIGGER organizations_changed_list_version AFTER UPDATE OF name, display_name, attributes ON organizations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.display_name IS DISTINCT FROM NEW.display_name
        OR OLD.attributes::text IS DISTINCT FROM NEW.attributes::text)
  EXECUTE FUNCTION organizations_count_list_change();
