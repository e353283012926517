# A member's roles are imported by ORG_ID/USER_ID (organization id and user id), or REALM/ORG_ID/USER_ID.
terraform import orgadmin_organization_member_roles.alice 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/0c6a4d2e-8f3b-4a71-b5d9-3e1f7a9c2b40
