resource "orgadmin_organization" "example" {
  name = "example"
}

# A role of the organization's own.
resource "orgadmin_organization_role" "billing" {
  organization_id = orgadmin_organization.example.id
  name            = "billing"
  description     = "Sees invoices and pays them"
}

# A default role (every organization has it): declaring it adopts it and sets its description.
resource "orgadmin_organization_role" "manage_members" {
  organization_id = orgadmin_organization.example.id
  name            = "manage-members"
  description     = "Adds and removes the organization's members"
}
