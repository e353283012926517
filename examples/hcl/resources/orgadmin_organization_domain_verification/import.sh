# A verified domain is imported by ORG/DOMAIN (organization id and domain), or REALM/ORG/DOMAIN.
terraform import orgadmin_organization_domain_verification.globex 6f1d3c0e-5b7a-4c39-9a51-2f0e8d4b7c11/globex.com
