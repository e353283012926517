variable "organization_id" {
  type    = string
  default = "6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11"
}

# { name = "_org-domain-ownership.globex.com", value = "<sha256 hex>" }, computed offline.
output "globex_record" {
  value = provider::orgadmin::domain_verification_record(var.organization_id, "globex.com")
}
