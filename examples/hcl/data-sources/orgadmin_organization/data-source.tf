# By exact name (or set `id` instead).
data "orgadmin_organization" "acme" {
  name = "acme"
}

output "acme_domains" {
  value = data.orgadmin_organization.acme.domains
}
