resource "orgadmin_organization" "example" {
  name = "example"
}

resource "orgadmin_organization_role" "billing" {
  organization_id = orgadmin_organization.example.id
  name            = "billing"
}

data "orgadmin_user" "alice" {
  email = "alice@example.com"
}

resource "orgadmin_membership" "alice" {
  organization_id = orgadmin_organization.example.id
  user_id         = data.orgadmin_user.alice.id
}

# Every role alice holds in the organization. Refer to the membership's user_id, so that
# Terraform makes alice a member first, and to the roles' names, so that they exist first.
resource "orgadmin_organization_member_roles" "alice" {
  organization_id = orgadmin_organization.example.id
  user_id         = orgadmin_membership.alice.user_id
  roles           = [orgadmin_organization_role.billing.name, "view-members"]
}

# Every member of an authoritative member set with the same role set: one
# orgadmin_organization_member_roles per member, for_each over the set's user_ids.
resource "orgadmin_organization_members" "team" {
  organization_id = orgadmin_organization.example.id
  user_ids = [
    "0c6a4d2e-8f3b-4a71-b5d9-3e1f7a9c2b40",
    "9b2e7f14-1c3d-4e8a-a6f0-5d4c3b2a1e90",
  ]
}

resource "orgadmin_organization_member_roles" "team" {
  for_each        = toset(orgadmin_organization_members.team.user_ids)
  organization_id = orgadmin_organization_members.team.organization_id
  user_id         = each.value
  roles           = ["view-members", "view-roles"]
}
