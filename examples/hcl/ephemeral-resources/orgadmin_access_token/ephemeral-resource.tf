# A token of the provider's API key, limited to reading organizations, for another tool in the
# same run; the provider revokes it when Terraform closes it at the end of the run.
ephemeral "orgadmin_access_token" "reader" {
  permissions = ["view-organizations"]
}

# Here a provisioner calls the service with it; a `provider` block of another tool may take it too.
resource "terraform_data" "report" {
  provisioner "local-exec" {
    command = "curl -fsS -H \"Authorization: Bearer $TOKEN\" \"$ORGADMIN_BASE_URL/realms/acme/orgs\" > orgs.json"
    environment = {
      TOKEN = ephemeral.orgadmin_access_token.reader.access_token
    }
  }
}
