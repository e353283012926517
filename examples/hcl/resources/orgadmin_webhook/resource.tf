variable "webhook_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

# Every change of an organization or a membership, posted to the pipeline's receiver and signed
# with a secret that never enters the plan or the state.
resource "orgadmin_webhook" "drift" {
  url               = "https://ci.example.com/hooks/orgadmin"
  event_types       = ["admin.ORGANIZATION-*", "admin.ORGANIZATION_MEMBERSHIP-*"]
  secret_wo         = var.webhook_secret
  secret_wo_version = 1 # change it to send a new secret
}
