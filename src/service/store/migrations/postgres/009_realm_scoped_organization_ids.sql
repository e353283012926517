-- Organization ids are scoped to their realm (issue 27, finding 8; same change as
-- migrations/sqlite/009_realm_scoped_organization_ids.sql): the key of an organization is
-- (realm, id), so two realms may each hold an organization of one id, and a realm cannot learn or
-- squat the ids of another. Every table that names an organization names its realm too, and its
-- foreign key is (realm, organization id). Rows, ids and order are kept: the realm of each row is
-- its organization's (ids were unique across realms until now, so the id alone finds it).

-- The grants' keys lean on the membership and role keys changed below.
ALTER TABLE role_grants DROP CONSTRAINT role_grants_role, DROP CONSTRAINT role_grants_membership;
-- CASCADE drops every foreign key onto the old key: users, memberships, organization_roles, and
-- domain_verifications and identity_providers where migration 011 ran before this one.
ALTER TABLE organizations DROP CONSTRAINT organizations_pkey CASCADE;
ALTER TABLE organizations ADD CONSTRAINT organizations_pkey PRIMARY KEY (realm, id);

-- An organization's default admin user goes away with the organization (of the user's realm).
ALTER TABLE users ADD CONSTRAINT users_admin_of_organization_fkey
  FOREIGN KEY (realm, admin_of_organization) REFERENCES organizations (realm, id) ON DELETE CASCADE;
DROP INDEX users_admin_of_organization;
CREATE INDEX users_admin_of_organization ON users (realm, admin_of_organization) WHERE admin_of_organization IS NOT NULL;

ALTER TABLE memberships ADD COLUMN realm text COLLATE "C";
UPDATE memberships AS m SET realm = o.realm FROM organizations AS o WHERE o.id = m.organization_id;
ALTER TABLE memberships
  ALTER COLUMN realm SET NOT NULL,
  DROP CONSTRAINT memberships_organization_user,
  ADD CONSTRAINT memberships_organization_user UNIQUE (realm, organization_id, user_id),
  ADD CONSTRAINT memberships_organization_fkey
    FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE;
DROP INDEX memberships_organization_order;
CREATE INDEX memberships_organization_order ON memberships (realm, organization_id, seq);

ALTER TABLE organization_roles ADD COLUMN realm text COLLATE "C";
UPDATE organization_roles AS r SET realm = o.realm FROM organizations AS o WHERE o.id = r.organization_id;
ALTER TABLE organization_roles
  ALTER COLUMN realm SET NOT NULL,
  DROP CONSTRAINT organization_roles_organization_name,
  DROP CONSTRAINT organization_roles_organization_id,
  ADD CONSTRAINT organization_roles_organization_name UNIQUE (realm, organization_id, name),
  -- The parent key of role_grants' (realm, organization_id, role_id): a grant's role is of its organization.
  ADD CONSTRAINT organization_roles_organization_id UNIQUE (realm, organization_id, id),
  ADD CONSTRAINT organization_roles_organization_fkey
    FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE;

ALTER TABLE role_grants ADD COLUMN realm text COLLATE "C";
UPDATE role_grants AS g SET realm = o.realm FROM organizations AS o WHERE o.id = g.organization_id;
ALTER TABLE role_grants
  ALTER COLUMN realm SET NOT NULL,
  ADD CONSTRAINT role_grants_role FOREIGN KEY (realm, organization_id, role_id)
    REFERENCES organization_roles (realm, organization_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT role_grants_membership FOREIGN KEY (realm, organization_id, user_id)
    REFERENCES memberships (realm, organization_id, user_id) ON DELETE CASCADE;
DROP INDEX role_grants_member;
CREATE INDEX role_grants_member ON role_grants (realm, organization_id, user_id);

-- Migration 005's counter of an organization's member list, the organization found by realm and id.
CREATE OR REPLACE FUNCTION memberships_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE organizations SET members_version = members_version + 1 WHERE realm = OLD.realm AND id = OLD.organization_id;
  ELSE
    UPDATE organizations SET members_version = members_version + 1 WHERE realm = NEW.realm AND id = NEW.organization_id;
  END IF;
  RETURN NULL;
END
$$;

-- Where migration 011 ran before this one, its tables get the keys 011 now makes them with.
DO $migration$
BEGIN
  IF to_regclass('domain_verifications') IS NOT NULL THEN
    ALTER TABLE domain_verifications ADD CONSTRAINT domain_verifications_organization_fkey
      FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE;
    DROP INDEX domain_verifications_organization;
    CREATE INDEX domain_verifications_organization ON domain_verifications (realm, organization_id);
    CREATE OR REPLACE FUNCTION keep_listed_domain_verifications() RETURNS trigger LANGUAGE plpgsql AS $function$
    BEGIN
      DELETE FROM domain_verifications
       WHERE realm = NEW.realm AND organization_id = NEW.id
         AND domain NOT IN (SELECT json_array_elements_text(NEW.domains));
      RETURN NULL;
    END;
    $function$;
  END IF;
  IF to_regclass('identity_providers') IS NOT NULL THEN
    ALTER TABLE identity_providers ADD CONSTRAINT identity_providers_organization_fkey
      FOREIGN KEY (realm, organization_id) REFERENCES organizations (realm, id) ON DELETE CASCADE;
    DROP INDEX identity_providers_organization;
    CREATE INDEX identity_providers_organization ON identity_providers (realm, organization_id);
  END IF;
END
$migration$;
