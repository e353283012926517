# A webhook is imported by its id, or by REALM/ID for another realm than the provider's.
terraform import orgadmin_webhook.example 3b0f7c2e-9a41-4d1e-8c55-0f6e2d7a9b13
