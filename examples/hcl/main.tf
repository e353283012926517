# Organizations and memberships of the demo realm, as code.
# See README.md for running it against the demo service (`orgadmin demo`).

terraform {
  required_providers {
    orgadmin = {
      source = "orgadmin/orgadmin"
    }
  }
}

# Where the service is and which API key to use come from the environment:
# ORGADMIN_BASE_URL, ORGADMIN_REALM, ORGADMIN_CLIENT_ID and ORGADMIN_CLIENT_SECRET.
provider "orgadmin" {}

# Memberships address users by id; look the demo users up by email.
data "orgadmin_user" "alice" {
  email = "alice@example.com"
}

data "orgadmin_user" "bob" {
  email = "bob@example.com"
}

data "orgadmin_user" "carol" {
  email = "carol@example.com"
}

resource "orgadmin_organization" "acme" {
  name         = "acme"
  display_name = "ACME Corporation"
  url          = "https://acme.example.com"
  domains      = ["acme.example.com"]
  attributes = {
    tier = ["gold"]
  }
}

resource "orgadmin_organization" "globex" {
  name         = "globex"
  display_name = "Globex"
}

# Additive memberships: each adds one user and leaves the organization's other members alone.
resource "orgadmin_membership" "acme_alice" {
  organization_id = orgadmin_organization.acme.id
  user_id         = data.orgadmin_user.alice.id
}

resource "orgadmin_membership" "acme_bob" {
  organization_id = orgadmin_organization.acme.id
  user_id         = data.orgadmin_user.bob.id
}

# An authoritative member set: globex has exactly these members (plus its default admin user,
# which Terraform never touches). Anyone added outside Terraform is removed on the next apply.
resource "orgadmin_organization_members" "globex" {
  organization_id = orgadmin_organization.globex.id
  user_ids = [
    data.orgadmin_user.bob.id,
    data.orgadmin_user.carol.id,
  ]
}

output "acme_id" {
  description = "The id of the acme organization."
  value       = orgadmin_organization.acme.id
}

output "globex_id" {
  description = "The id of the globex organization."
  value       = orgadmin_organization.globex.id
}
