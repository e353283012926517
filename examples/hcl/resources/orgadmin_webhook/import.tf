# Terraform 1.5 and later: an import block, reviewed in the plan like any other change.
import {
  to = orgadmin_webhook.example
  id = "3b0f7c2e-9a41-4d1e-8c55-0f6e2d7a9b13"
}
