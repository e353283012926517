data "orgadmin_organization" "globex" {
  name = "globex"
}

# Whether globex.com is verified, and the TXT record that verifies it.
data "orgadmin_organization_domain" "globex" {
  organization_id = data.orgadmin_organization.globex.id
  domain          = "globex.com"
}

output "globex_com_verified" {
  value = data.orgadmin_organization_domain.globex.verified
}

output "globex_com_record" {
  value = "${data.orgadmin_organization_domain.globex.record_name} TXT ${data.orgadmin_organization_domain.globex.record_value}"
}
