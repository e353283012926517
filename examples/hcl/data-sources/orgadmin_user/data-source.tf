# By exact email (or set `username` instead); memberships take the user's id.
data "orgadmin_user" "alice" {
  email = "alice@example.com"
}

output "alice_id" {
  value = data.orgadmin_user.alice.id
}
