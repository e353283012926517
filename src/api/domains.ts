/**
 * Verified domains of an organization (the vendor's `DomainsResource` of p2-inc/keycloak-orgs):
 * an organization proves it controls a domain by publishing a DNS TXT record whose name and value
 * follow from the domain and the organization's id alone. Both are computed once, in
 * ./domain-record.ts, for the service (which looks the record up), the SDK, and the provider's
 * offline function `domain_verification_record`, so that a DNS resource and the verification that
 * waits for it can sit in the same Terraform configuration. This file holds the representations.
 */
import { Type, type Static } from '@sinclair/typebox';

export { DOMAIN_RECORD_KEY, domainRecordName, domainRecordValue } from './domain-record';
import { DOMAIN_RECORD_KEY, domainRecordValue } from './domain-record';

/** One domain of an organization (the vendor spec's `OrganizationDomainRepresentation`). */
export const OrganizationDomainSchema = Type.Object({
  domain_name: Type.String(),
  verified: Type.Boolean(),
  record_key: Type.String(),
  record_value: Type.String(),
});
/** One domain of an organization with its verification state and the record to publish. */
export type OrganizationDomain = Static<typeof OrganizationDomainSchema>;
/** `GET …/domains`. */
export const OrganizationDomainListSchema = Type.Array(OrganizationDomainSchema);

/**
 * What a verification found, beside the representation in the answer of `POST …/verify` (this
 * service's addition: the vendor answers the representation only, which cannot tell a missing
 * record from a wrong value or an unreachable DNS server).
 */
export const DOMAIN_CHECK_OUTCOMES = ['verified', 'no_record', 'value_mismatch', 'lookup_failed'] as const;
/** One outcome of a domain check. */
export type DomainCheckOutcome = (typeof DOMAIN_CHECK_OUTCOMES)[number];

/** The answer of `POST …/domains/{domain}/verify`: the representation and, as this service's addition, what the lookup found. */
export const DomainVerificationSchema = Type.Intersect([
  OrganizationDomainSchema,
  Type.Object({
    verification: Type.Optional(
      Type.Object({
        /** The TXT record name that was looked up. */
        record_name: Type.String(),
        outcome: Type.Union(DOMAIN_CHECK_OUTCOMES.map((outcome) => Type.Literal(outcome))),
        /** One sentence on what the lookup found. */
        detail: Type.String(),
      }),
    ),
  }),
]);
/** The answer of a verification. */
export type DomainVerification = Static<typeof DomainVerificationSchema>;

/** The representation of `domain` of organization `organizationId`. */
export function organizationDomain(organizationId: string, domain: string, verified: boolean): OrganizationDomain {
  return { domain_name: domain, verified, record_key: DOMAIN_RECORD_KEY, record_value: domainRecordValue(organizationId, domain) };
}
