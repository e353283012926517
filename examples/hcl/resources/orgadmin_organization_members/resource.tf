resource "orgadmin_organization" "example" {
  name = "example"
}

# The organization's whole member set: members not listed here are removed, except the
# organization's default admin user, which is never managed. Members are named by email here (plans
# name each added or removed member); `usernames` and `user_ids` work the same way, and mix.
resource "orgadmin_organization_members" "example" {
  organization_id = orgadmin_organization.example.id
  emails = [
    "alice@example.com",
    "bob@example.com",
  ]
}

# Switching an organization from orgadmin_membership resources to this member set: forget the
# memberships instead of destroying them (their members stay), in the same change. A plan that
# manages one organization with both styles fails before anything changes.
removed {
  from = orgadmin_membership.example
  lifecycle {
    destroy = false
  }
}
