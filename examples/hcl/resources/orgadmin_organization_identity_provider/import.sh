# An identity provider is imported by ORG/ALIAS (organization id and alias), or REALM/ORG/ALIAS.
terraform import orgadmin_organization_identity_provider.globex_okta 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/globex-okta
