# An organization is imported by its id, or by REALM/ID for another realm than the provider's.
terraform import orgadmin_organization.example 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11
