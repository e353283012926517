-- Organization roles and their grants (same change as migrations/postgres/007_organization_roles.sql).
--
-- A role belongs to one organization and is named uniquely there. A grant gives one member one
-- role of the same organization: its foreign keys make a grant to a non-member impossible (also
-- under concurrent requests), and make removing the member, deleting the role or deleting the
-- organization remove the grant with it, as the hosted service does (keycloak-orgs
-- OrganizationAdapter.revokeMembership, the role's orphan removal).
CREATE TABLE organization_roles (
  id                TEXT PRIMARY KEY,
  organization_id   TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  description       TEXT,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (organization_id, name),
  -- The parent key of role_grants' (organization_id, role_id): a grant's role is of its organization.
  UNIQUE (organization_id, id)
);

CREATE TABLE role_grants (
  -- Monotonic: the users of a role are listed in the order they were granted it.
  seq               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id   TEXT NOT NULL,
  role_id           TEXT NOT NULL,
  user_id           TEXT NOT NULL,
  created_timestamp INTEGER NOT NULL,
  UNIQUE (role_id, user_id),
  FOREIGN KEY (organization_id, role_id) REFERENCES organization_roles (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, user_id) REFERENCES memberships (organization_id, user_id) ON DELETE CASCADE
);
-- A member's roles, and the cascade of a membership's removal.
CREATE INDEX role_grants_member ON role_grants (organization_id, user_id);

-- Every organization has the default roles from its creation on (src/api/roles.ts,
-- DEFAULT_ORGANIZATION_ROLES; test/service/store/role-migration.test.ts checks that this list is
-- the same), and its default admin user holds all of them. Organizations created before this
-- migration get them here; the store creates them with every new organization.
WITH defaults (name, description) AS (VALUES
    ('view-organization', 'View this organization'),
    ('delete-organization', 'Delete this organization'),
    ('manage-organization', 'Manage this organization'),
    ('view-members', 'View members of this organization'),
    ('manage-members', 'Add and manage members of this organization'),
    ('view-roles', 'View roles of this organization'),
    ('manage-roles', 'Create and manage roles and member assignments of this organization'),
    ('view-invitations', 'View invitations to this organization'),
    ('manage-invitations', 'Create and manage invitations to this organization'),
    ('view-identity-providers', 'View the identity provider used to authenticate users to this organization'),
    ('manage-identity-providers', 'Add and manage the identity provider used to authenticate users to this organization')
)
INSERT INTO organization_roles (id, organization_id, name, description, created_timestamp)
SELECT
  lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
    || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
  o.id, d.name, d.description, o.created_timestamp
FROM organizations AS o CROSS JOIN defaults AS d;

INSERT INTO role_grants (organization_id, role_id, user_id, created_timestamp)
SELECT r.organization_id, r.id, u.id, r.created_timestamp
FROM organization_roles AS r
JOIN users AS u ON u.admin_of_organization = r.organization_id AND u.kind = 'org-admin'
JOIN memberships AS m ON m.organization_id = r.organization_id AND m.user_id = u.id
ORDER BY r.organization_id, r.name;
