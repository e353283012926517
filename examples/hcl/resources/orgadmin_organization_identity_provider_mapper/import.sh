# A mapper is imported by ORG/ALIAS/MAPPER_ID, or REALM/ORG/ALIAS/MAPPER_ID.
terraform import orgadmin_organization_identity_provider_mapper.first_admins 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/globex-okta/3c2b1a00-1111-4222-8333-444455556666
