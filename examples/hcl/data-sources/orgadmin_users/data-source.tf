# Many users at once, by exact username and/or email: a few requests, not one per user. Every
# name must match a user; the error names each one that does not.
data "orgadmin_users" "team" {
  emails = ["alice@example.com", "bob@example.com", "carol@example.com"]
}

# By id, in the order an imported member set's user_ids has (username order).
resource "orgadmin_organization_members" "team_by_id" {
  organization_id = "6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11"
  user_ids        = data.orgadmin_users.team.ids
}
