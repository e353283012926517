data "orgadmin_organization" "acme" {
  name = "acme"
}

data "orgadmin_organization_roles" "acme" {
  organization_id = data.orgadmin_organization.acme.id
}

output "acme_custom_roles" {
  value = [for role in data.orgadmin_organization_roles.acme.roles : role.name if !role.default]
}
