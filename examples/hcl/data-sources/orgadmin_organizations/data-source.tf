# Every organization whose name or display name contains "corp" and whose attribute tier is gold.
data "orgadmin_organizations" "gold" {
  search     = "corp"
  attributes = { tier = "gold" }
}

output "gold_organization_names" {
  value = data.orgadmin_organizations.gold.organizations[*].name
}
