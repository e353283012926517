resource "orgadmin_organization" "globex" {
  name    = "globex"
  domains = ["globex.com"]
}

variable "globex_okta_client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

# People with an @globex.com address (once the domain is verified) sign in through Globex's Okta.
resource "orgadmin_organization_identity_provider" "globex_okta" {
  organization_id = orgadmin_organization.globex.id
  alias           = "globex-okta"
  display_name    = "Globex Okta"
  issuer          = "https://globex.okta.com"
  client_id       = "0oa1orgadmin"
  # Write-only: never in plan or state. Change the version to send a new secret.
  client_secret_wo         = var.globex_okta_client_secret
  client_secret_wo_version = 1
}

# Register this at the upstream as a redirect URI of the client.
output "globex_okta_redirect_uri" {
  value = orgadmin_organization_identity_provider.globex_okta.redirect_uri
}
