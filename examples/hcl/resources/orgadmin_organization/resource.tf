resource "orgadmin_organization" "example" {
  name         = "example"
  display_name = "Example Inc."
  url          = "https://www.example.com"
  domains      = ["example.com"]
  attributes = {
    tier = ["gold"]
  }
}
