resource "orgadmin_organization" "example" {
  name = "example"
}

# The organization's whole member set: members not listed here are removed, except the
# organization's default admin user, which is never managed.
resource "orgadmin_organization_members" "example" {
  organization_id = orgadmin_organization.example.id
  user_ids = [
    "0c6a4d2e-8f3b-4a71-b5d9-3e1f7a9c2b40",
    "9b2e7f14-1c3d-4e8a-a6f0-5d4c3b2a1e90",
  ]
}
