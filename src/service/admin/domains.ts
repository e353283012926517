/**
 * Verified domains of organizations, as the JSON API (routes/domains.ts) and the dashboard reach
 * them: each domain an organization lists, whether it is verified, the TXT record that proves it,
 * and the verification itself (a real DNS lookup).
 *
 * Rules (docs/guides/service.md, "Domains"):
 * - The record is `_org-domain-ownership.<domain>` with the value src/api/domains.ts computes (the
 *   vendor's), so it can be computed before the organization's domain is even listed.
 * - A domain leaves verified state only by leaving the organization's list (the schema's trigger);
 *   a later lookup that finds no record does not unverify it, as with the vendor.
 * - One organization per realm holds a domain's verification: a second one that publishes its own
 *   record is refused with 409 `conflict`, and nothing changes.
 *
 * Failures are the wire contract's {@link ServiceError}s.
 */
import { domainRecordName, domainRecordValue, normalizeDomain, organizationDomain, type DomainVerification, type OrganizationDomain } from '../../api';
import { notFound, ServiceError } from '../errors';
import type { TxtAnswer, TxtLookup } from '../domains/txt-lookup';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';
import type { Store } from '../store/store';

/** What a TXT lookup means for the expected value, in words for the verification answer. */
function describeLookup(recordName: string, expected: string, answer: TxtAnswer): NonNullable<DomainVerification['verification']> {
  switch (answer.kind) {
    case 'none':
      return { record_name: recordName, outcome: 'no_record', detail: `DNS has no TXT record at ${recordName}.` };
    case 'failed':
      return { record_name: recordName, outcome: 'lookup_failed', detail: `The DNS lookup of ${recordName} failed (${answer.reason}); nothing was changed.` };
    case 'records':
      return answer.values.includes(expected)
        ? { record_name: recordName, outcome: 'verified', detail: `The TXT record at ${recordName} holds the expected value.` }
        : {
            record_name: recordName,
            outcome: 'value_mismatch',
            detail: `The TXT records at ${recordName} (${answer.values.map((value) => JSON.stringify(value)).join(', ')}) do not hold the expected value ${expected}.`,
          };
  }
}

/** Domains of organizations and their verification, over a {@link Store} and a DNS TXT lookup. */
export class DomainAdmin {
  constructor(
    private readonly store: Store,
    private readonly lookupTxt: TxtLookup,
    private readonly now: () => number = Date.now,
    /** Who the verifications' events name. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** The organization's listed domains (in its order), or 404. */
  private async listed(realm: string, orgId: string): Promise<string[]> {
    const org = await this.store.getOrganization(realm, orgId);
    if (!org) throw notFound(`Organization ${orgId} does not exist.`);
    return org.domains;
  }

  /** Every domain of the organization with its verification state and record. */
  async list(realm: string, orgId: string): Promise<OrganizationDomain[]> {
    const domains = await this.listed(realm, orgId);
    const verified = new Set(await this.store.sso.verifiedDomains(realm, orgId));
    return domains.map((domain) => organizationDomain(orgId, domain, verified.has(domain)));
  }

  /** One domain of the organization (written in any case, with or without the root dot), or 404. */
  async get(realm: string, orgId: string, domainName: string): Promise<OrganizationDomain> {
    const domain = normalizeDomain(domainName);
    if (!(await this.listed(realm, orgId)).includes(domain)) throw notFound(`${domainName} is not a domain of organization ${orgId}.`);
    return organizationDomain(orgId, domain, (await this.store.sso.verifiedDomains(realm, orgId)).includes(domain));
  }

  /**
   * Looks the domain's TXT record up and, when it holds the expected value, records the domain as
   * verified by this organization. 404 when the organization does not list the domain; 409 when
   * another organization of the realm already verified it. Otherwise answers the representation
   * (verified or not) with what the lookup found.
   */
  async verify(realm: string, orgId: string, domainName: string): Promise<DomainVerification> {
    const current = await this.get(realm, orgId, domainName);
    const domain = current.domain_name;
    const recordName = domainRecordName(domain);
    if (current.verified) {
      return { ...current, verification: { record_name: recordName, outcome: 'verified', detail: `${domain} is already verified by this organization.` } };
    }
    const expected = domainRecordValue(orgId, domain);
    const found = describeLookup(recordName, expected, await this.lookupTxt(recordName));
    if (found.outcome !== 'verified') return { ...current, verification: found };
    const claim = await this.store.sso.verifyDomain(realm, orgId, domain, this.now(), this.origin);
    if (claim.outcome === 'not_listed') throw notFound(`${domainName} is not a domain of organization ${orgId}.`);
    if (claim.outcome === 'taken') {
      throw new ServiceError(409, 'conflict', `${domain} is already verified by another organization of this realm (${claim.organizationId}); a domain can be verified by one organization only.`);
    }
    return { ...current, verified: true, verification: found };
  }
}
