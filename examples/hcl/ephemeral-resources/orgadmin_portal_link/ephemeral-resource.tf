resource "orgadmin_organization" "example" {
  name = "example"
}

# A portal link for the organization's admin user: opened during the run, never stored.
ephemeral "orgadmin_portal_link" "admin" {
  organization_id = orgadmin_organization.example.id
}

# Hand it to someone from a provisioner; Terraform suppresses the command's output.
resource "terraform_data" "welcome" {
  triggers_replace = [orgadmin_organization.example.id]

  provisioner "local-exec" {
    command = "./send-welcome.sh"
    environment = {
      PORTAL_LINK = ephemeral.orgadmin_portal_link.admin.link
    }
  }
}
