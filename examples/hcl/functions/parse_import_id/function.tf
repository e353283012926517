# Import ids kept in a list, e.g. written by `orgadmin terraform import-blocks`.
locals {
  membership_ids = ["acme/6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/0c6a4d2e-8f3b-4a71-b5d9-3e1f7a9c2b40"]
  memberships    = [for id in local.membership_ids : provider::orgadmin::parse_import_id(id)]
}

output "first_member" {
  # { realm = "acme", organization_id = "6f1d…", user_id = "0c6a…", role_name = null, domain = null, alias = null, mapper_id = null, webhook_id = null }
  value = local.memberships[0]
}

output "organization_of" {
  # Two segments read differently per resource: name the resource type.
  value = provider::orgadmin::parse_import_id("acme/6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11", "orgadmin_organization").organization_id
}
