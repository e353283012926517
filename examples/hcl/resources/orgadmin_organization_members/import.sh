# A member set is imported by the organization's id, or REALM/ORG.
terraform import orgadmin_organization_members.example 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11
