# A member set is imported by the organization's id, or REALM/ORG; members come in as user_ids,
# or add ?by=usernames or ?by=emails to name them so.
terraform import orgadmin_organization_members.example 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11
terraform import orgadmin_organization_members.example "6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11?by=emails"
