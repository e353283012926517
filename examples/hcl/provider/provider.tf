terraform {
  required_providers {
    orgadmin = {
      source = "orgadmin/orgadmin"
    }
  }
}

# Every setting can come from the environment instead: ORGADMIN_BASE_URL, ORGADMIN_REALM,
# ORGADMIN_CLIENT_ID, ORGADMIN_CLIENT_SECRET (keep the secret out of the configuration).
provider "orgadmin" {
  base_url  = "https://acme.example.com"
  realm     = "acme"
  client_id = "terraform"
}
