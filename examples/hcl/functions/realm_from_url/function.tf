variable "service_url" {
  type    = string
  default = "https://acme.example.com"
}

# "acme": the realm the provider uses for this address when its `realm` is not set.
output "realm" {
  value = provider::orgadmin::realm_from_url(var.service_url)
}
