resource "orgadmin_organization" "example" {
  name = "example"
}

data "orgadmin_user" "alice" {
  email = "alice@example.com"
}

# Adds alice to the organization; other members are left alone.
resource "orgadmin_membership" "alice" {
  organization_id = orgadmin_organization.example.id
  user_id         = data.orgadmin_user.alice.id
}
