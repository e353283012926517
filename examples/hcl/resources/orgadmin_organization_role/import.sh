# A role is imported by ORG_ID/ROLE_NAME (organization id and role name), or REALM/ORG_ID/ROLE_NAME.
terraform import orgadmin_organization_role.billing 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/billing
