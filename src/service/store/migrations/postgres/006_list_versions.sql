-- Organization and user lists page by keyset (same change as migrations/sqlite/006_list_versions.sql).
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
  realm   text COLLATE "C" NOT NULL,
  list    text COLLATE "C" NOT NULL CHECK (list IN ('organizations', 'users')),
  version bigint NOT NULL,
  CONSTRAINT list_versions_pkey PRIMARY KEY (realm, list)
);

-- The counters are bumped at commit (deferred constraint triggers), so that a counter is locked
-- only for the moment of a commit, not from the first change to the commit: organizations or users
-- created at the same time in one realm queue for that moment only. Since a transaction takes a
-- counter's lock last and then waits for nothing else, it cannot be part of a deadlock. Updates
-- count only when a column that orders or filters the list changed: the member list counter's own
-- updates of organizations (members_version), or a user's enabled flag, never touch these.
CREATE FUNCTION count_list_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_realm text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed_realm := OLD.realm;
  ELSE
    changed_realm := NEW.realm;
  END IF;
  -- TG_ARGV[0] names the list: 'organizations' or 'users'.
  INSERT INTO list_versions AS v (realm, list, version) VALUES (changed_realm, TG_ARGV[0], 1)
    ON CONFLICT (realm, list) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER organizations_added_or_removed_list_version AFTER INSERT OR DELETE ON organizations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION count_list_change('organizations');
CREATE CONSTRAINT TRIGGER organizations_changed_list_version AFTER UPDATE OF name, display_name, attributes ON organizations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.display_name IS DISTINCT FROM NEW.display_name
        OR OLD.attributes::text IS DISTINCT FROM NEW.attributes::text)
  EXECUTE FUNCTION count_list_change('organizations');

CREATE CONSTRAINT TRIGGER users_added_or_removed_list_version AFTER INSERT OR DELETE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION count_list_change('users');
CREATE CONSTRAINT TRIGGER users_changed_list_version AFTER UPDATE OF username, email, first_name, last_name, kind ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.email IS DISTINCT FROM NEW.email
        OR OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.kind IS DISTINCT FROM NEW.kind)
  EXECUTE FUNCTION count_list_change('users');
