/**
 * The DNS TXT record that verifies an organization's domain (the vendor's `DomainsResource` of
 * p2-inc/keycloak-orgs): its name and value follow from the domain and the organization's id
 * alone. Kept apart from the wire schemas (./domains.ts) so that the provider's function and
 * resources compute it without loading them.
 */
import { createHash } from 'node:crypto';

/**
 * The label the record sits under, as the vendor names it (`record_key` of the representation):
 * the record itself is `_org-domain-ownership.<domain>`.
 */
export const DOMAIN_RECORD_KEY = '_org-domain-ownership';

/** The DNS name of the TXT record that proves `domain` (normalized) belongs to an organization. */
export function domainRecordName(domain: string): string {
  return `${DOMAIN_RECORD_KEY}.${domain}`;
}

/**
 * The value the TXT record must hold: the lowercase hex SHA-256 of `"<domain> <organization id>"`
 * (UTF-8), exactly as the vendor computes it, so a record made for the hosted service verifies
 * here too.
 */
export function domainRecordValue(organizationId: string, domain: string): string {
  return createHash('sha256').update(`${domain} ${organizationId}`, 'utf8').digest('hex');
}

