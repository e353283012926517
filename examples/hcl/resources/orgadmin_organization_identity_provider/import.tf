# Terraform 1.5 and later: an import block, reviewed in the plan like any other change.
import {
  to = orgadmin_organization_identity_provider.globex_okta
  id = "6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/globex-okta"
}
