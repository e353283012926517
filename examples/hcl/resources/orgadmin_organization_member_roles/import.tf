# Terraform 1.5 and later: an import block, reviewed in the plan like any other change.
import {
  to = orgadmin_organization_member_roles.alice
  id = "6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/0c6a4d2e-8f3b-4a71-b5d9-3e1f7a9c2b40"
}
