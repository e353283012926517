-- Organization ids are scoped to their realm (issue 27, finding 8; same change as
-- migrations/postgres/009_realm_scoped_organization_ids.sql): the key of an organization is
-- (realm, id), so two realms may each hold an organization of one id, and a realm cannot learn or
-- squat the ids of another. Every table that names an organization names its realm too, and its
-- foreign key is (realm, organization id).
--
-- SQLite cannot change a table's key or foreign keys in place, so each table is rebuilt: made anew
-- under a temporary name, filled from the old one (rows, ids, order and counters kept), the old one
-- dropped and the new one renamed (https://www.sqlite.org/lang_altertable.html#otheralter). The
-- runner applies migrations with foreign keys off, so dropping a table cascades nowhere, and checks
-- every foreign key before it commits (sqlite-store.ts).
--
-- Migration 011 may have run before this one (databases made while 011 was the newest): then its
-- domain_verifications and identity_providers exist and are rebuilt too. On a database without
-- them they are made here, empty, already in their final shape, and 011 leaves them be.
CREATE TABLE IF NOT EXISTS domain_verifications (
  realm              TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  domain             TEXT NOT NULL,
  organization_id    TEXT NOT NULL,
  verified_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, domain)
);
CREATE TABLE IF NOT EXISTS identity_providers (
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  alias             TEXT NOT NULL,
  internal_id       TEXT NOT NULL UNIQUE,
  organization_id   TEXT,
  provider_id       TEXT NOT NULL,
  display_name      TEXT,
  enabled           INTEGER NOT NULL,
  trust_email       INTEGER NOT NULL,
  config            TEXT NOT NULL,
  client_secret     TEXT,
  created_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, alias)
);

CREATE TABLE organizations_009 (
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  id                TEXT NOT NULL,
  name              TEXT NOT NULL,
  display_name      TEXT,
  url               TEXT,
  domains           TEXT NOT NULL DEFAULT '[]', -- JSON array of lowercase DNS names
  attributes        TEXT NOT NULL DEFAULT '{}', -- JSON object: key -> array of strings
  created_timestamp INTEGER NOT NULL,
  members_version   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (realm, id),
  UNIQUE (realm, name)
);
INSERT INTO organizations_009 (realm, id, name, display_name, url, domains, attributes, created_timestamp, members_version)
  SELECT realm, id, name, display_name, url, domains, attributes, created_timestamp, members_version FROM organizations;

CREATE TABLE users_009 (
  id                    TEXT PRIMARY KEY,
  realm                 TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  username              TEXT NOT NULL,
  email                 TEXT,
  first_name            TEXT,
  last_name             TEXT,
  email_verified        INTEGER NOT NULL DEFAULT 0,
  enabled               INTEGER NOT NULL DEFAULT 1,
  created_timestamp     INTEGER NOT NULL,
  kind                  TEXT NOT NULL CHECK (kind IN ('user', 'service-account', 'org-admin')),
  -- An organization's default admin user goes away with the organization (of the user's realm).
  admin_of_organization TEXT,
  password_hash         TEXT,
  realm_admin           INTEGER NOT NULL DEFAULT 0,
  FOREIGN KEY (realm, admin_of_organization) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
INSERT INTO users_009 (id, realm, username, email, first_name, last_name, email_verified, enabled, created_timestamp, kind,
                       admin_of_organization, password_hash, realm_admin)
  SELECT id, realm, username, email, first_name, last_name, email_verified, enabled, created_timestamp, kind,
         admin_of_organization, password_hash, realm_admin FROM users;

CREATE TABLE memberships_009 (
  -- Monotonic: members are listed in the order they joined.
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  realm             TEXT NOT NULL,
  organization_id   TEXT NOT NULL,
  user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (realm, organization_id, user_id),
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
INSERT INTO memberships_009 (seq, realm, organization_id, user_id, created_timestamp)
  SELECT m.seq, o.realm, m.organization_id, m.user_id, m.created_timestamp
  FROM memberships AS m JOIN organizations AS o ON o.id = m.organization_id;

CREATE TABLE organization_roles_009 (
  id                TEXT PRIMARY KEY,
  realm             TEXT NOT NULL,
  organization_id   TEXT NOT NULL,
  name              TEXT NOT NULL,
  description       TEXT,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (realm, organization_id, name),
  -- The parent key of role_grants' (realm, organization_id, role_id): a grant's role is of its organization.
  UNIQUE (realm, organization_id, id),
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
INSERT INTO organization_roles_009 (id, realm, organization_id, name, description, created_timestamp)
  SELECT r.id, o.realm, r.organization_id, r.name, r.description, r.created_timestamp
  FROM organization_roles AS r JOIN organizations AS o ON o.id = r.organization_id;

CREATE TABLE role_grants_009 (
  -- Monotonic: the users of a role are listed in the order they were granted it.
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  realm             TEXT NOT NULL,
  organization_id   TEXT NOT NULL,
  role_id           TEXT NOT NULL,
  user_id           TEXT NOT NULL,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (role_id, user_id),
  FOREIGN KEY (realm, organization_id, role_id) REFERENCES organization_roles (realm, organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (realm, organization_id, user_id) REFERENCES memberships (realm, organization_id, user_id) ON DELETE CASCADE
);
INSERT INTO role_grants_009 (seq, realm, organization_id, role_id, user_id, created_timestamp)
  SELECT g.seq, o.realm, g.organization_id, g.role_id, g.user_id, g.created_timestamp
  FROM role_grants AS g JOIN organizations AS o ON o.id = g.organization_id;

CREATE TABLE domain_verifications_009 (
  realm              TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  domain             TEXT NOT NULL, -- normalized: lowercase, no trailing dot
  organization_id    TEXT NOT NULL,
  verified_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, domain),
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
INSERT INTO domain_verifications_009 (realm, domain, organization_id, verified_timestamp)
  SELECT realm, domain, organization_id, verified_timestamp FROM domain_verifications;

CREATE TABLE identity_providers_009 (
  realm             TEXT NOT NULL REFERENCES realms(name) ON DELETE CASCADE,
  alias             TEXT NOT NULL,
  internal_id       TEXT NOT NULL UNIQUE,
  organization_id   TEXT,
  provider_id       TEXT NOT NULL,
  display_name      TEXT,
  enabled           INTEGER NOT NULL,
  trust_email       INTEGER NOT NULL,
  config            TEXT NOT NULL, -- JSON object of strings, without the client secret
  client_secret     TEXT,          -- sealed (auth/sealed-secrets.ts), NULL for a public client
  created_timestamp INTEGER NOT NULL,
  PRIMARY KEY (realm, alias),
  -- An unlinked provider (organization_id NULL) stays in the realm; a deleted organization takes its providers with it.
  FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE
);
INSERT INTO identity_providers_009 (realm, alias, internal_id, organization_id, provider_id, display_name, enabled, trust_email,
                                    config, client_secret, created_timestamp)
  SELECT realm, alias, internal_id, organization_id, provider_id, display_name, enabled, trust_email,
         config, client_secret, created_timestamp FROM identity_providers;

-- The AUTOINCREMENT counters go on from where they were, not from the largest kept seq.
UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT s.seq FROM sqlite_sequence AS s WHERE s.name = 'memberships'), 0))
  WHERE name = 'memberships_009';
UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT s.seq FROM sqlite_sequence AS s WHERE s.name = 'role_grants'), 0))
  WHERE name = 'role_grants_009';
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'memberships_009', s.seq FROM sqlite_sequence AS s
  WHERE s.name = 'memberships' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'memberships_009');
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'role_grants_009', s.seq FROM sqlite_sequence AS s
  WHERE s.name = 'role_grants' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'role_grants_009');

-- Children first: a dropped table takes its indexes and triggers with it (made again below).
DROP TABLE role_grants;
DROP TABLE organization_roles;
DROP TABLE memberships;
DROP TABLE domain_verifications;
DROP TABLE identity_providers;
DROP TABLE users;
DROP TABLE organizations;
ALTER TABLE organizations_009 RENAME TO organizations;
ALTER TABLE users_009 RENAME TO users;
ALTER TABLE memberships_009 RENAME TO memberships;
ALTER TABLE organization_roles_009 RENAME TO organization_roles;
ALTER TABLE role_grants_009 RENAME TO role_grants;
ALTER TABLE domain_verifications_009 RENAME TO domain_verifications;
ALTER TABLE identity_providers_009 RENAME TO identity_providers;

-- The indexes of migrations 001, 005, 007 and 011, now with the realm.
CREATE UNIQUE INDEX users_realm_username ON users (realm, lower(username));
CREATE UNIQUE INDEX users_realm_email ON users (realm, lower(email)) WHERE email IS NOT NULL;
CREATE INDEX users_admin_of_organization ON users (realm, admin_of_organization) WHERE admin_of_organization IS NOT NULL;
CREATE INDEX memberships_user ON memberships (user_id);
CREATE INDEX memberships_organization_order ON memberships (realm, organization_id, seq);
CREATE INDEX role_grants_member ON role_grants (realm, organization_id, user_id);
CREATE INDEX domain_verifications_organization ON domain_verifications (realm, organization_id);
CREATE INDEX identity_providers_organization ON identity_providers (realm, organization_id);

-- The triggers of migrations 005, 006 and 011, the organization found by realm and id.
CREATE TRIGGER memberships_added_version AFTER INSERT ON memberships BEGIN
  UPDATE organizations SET members_version = members_version + 1 WHERE realm = NEW.realm AND id = NEW.organization_id;
END;
CREATE TRIGGER memberships_removed_version AFTER DELETE ON memberships BEGIN
  UPDATE organizations SET members_version = members_version + 1 WHERE realm = OLD.realm AND id = OLD.organization_id;
END;

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

CREATE TRIGGER organizations_domains_keep_verifications AFTER UPDATE OF domains ON organizations BEGIN
  DELETE FROM domain_verifications
   WHERE realm = NEW.realm AND organization_id = NEW.id AND domain NOT IN (SELECT value FROM json_each(NEW.domains));
END;
