resource "orgadmin_organization" "globex" {
  name    = "globex"
  domains = ["globex.com"]
}

resource "orgadmin_organization_role" "admin" {
  organization_id = orgadmin_organization.globex.id
  name            = "admin"
}

resource "orgadmin_organization_identity_provider" "globex_okta" {
  organization_id = orgadmin_organization.globex.id
  alias           = "globex-okta"
  issuer          = "https://globex.okta.com"
  client_id       = "0oa1orgadmin"
}

# Globex's people get the admin role on their first sign-in through Okta.
resource "orgadmin_organization_identity_provider_mapper" "first_admins" {
  organization_id         = orgadmin_organization.globex.id
  identity_provider_alias = orgadmin_organization_identity_provider.globex_okta.alias
  name                    = "first administrators"
  mapper_type             = "oidc-hardcoded-org-role-idp-mapper"
  config = {
    org_role = orgadmin_organization_role.admin.name
    syncMode = "IMPORT"
  }
}
