# A small reusable module: one team's organization and its members, by email. Its tests
# (tests/team.tftest.hcl) run with `terraform test` against a real service, the local one included.
terraform {
  required_version = ">= 1.8" # provider-defined functions
  required_providers {
    orgadmin = {
      source = "orgadmin/orgadmin"
    }
  }
}

variable "name" {
  type        = string
  description = "The organization's name: lowercase letters, digits and dashes."

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9-]*$", var.name))
    error_message = "The name takes lowercase letters, digits and dashes, starting with a letter or digit."
  }
}

variable "display_name" {
  type        = string
  description = "The name people see."
  default     = null
}

variable "member_emails" {
  type        = set(string)
  description = "The team's members, by email; they must be users of the realm."
  default     = []
}

data "orgadmin_user" "member" {
  for_each = var.member_emails
  email    = each.value
}

resource "orgadmin_organization" "team" {
  name         = var.name
  display_name = var.display_name
}

# Additive: members added to the organization elsewhere are left alone.
resource "orgadmin_membership" "member" {
  for_each        = data.orgadmin_user.member
  organization_id = orgadmin_organization.team.id
  user_id         = each.value.id
}

output "organization_id" {
  description = "The team's organization."
  value       = orgadmin_organization.team.id
}

output "membership_import_ids" {
  description = "Each membership's import id, by email."
  value       = { for email, m in orgadmin_membership.member : email => "${m.realm}/${m.organization_id}/${m.user_id}" }
}
