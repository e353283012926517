data "orgadmin_organization" "acme" {
  name = "acme"
}

data "orgadmin_organization_members" "acme" {
  organization_id = data.orgadmin_organization.acme.id
}

output "acme_member_emails" {
  value = data.orgadmin_organization_members.acme.members[*].email
}
