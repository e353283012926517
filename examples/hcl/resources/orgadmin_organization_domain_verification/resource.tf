resource "orgadmin_organization" "globex" {
  name    = "globex"
  domains = ["globex.com"]
}

# The TXT record, known at plan: publish it with any DNS provider's record resource, e.g.
#   resource "aws_route53_record" "globex_verification" {
#     zone_id = var.zone_id
#     type    = "TXT"
#     ttl     = 300
#     name    = local.globex_record.name
#     records = [local.globex_record.value]
#   }
locals {
  globex_record = provider::orgadmin::domain_verification_record(orgadmin_organization.globex.id, "globex.com")
}

# Waits (with backoff, up to timeouts.create) until the service finds the record.
resource "orgadmin_organization_domain_verification" "globex" {
  organization_id = orgadmin_organization.globex.id
  domain          = "globex.com"
  timeouts = {
    create = "15m"
  }
  # depends_on = [aws_route53_record.globex_verification]
}
