/**
 * `provider::orgadmin::domain_verification_record(organization_id, domain)`: the DNS TXT record that
 * proves an organization controls a domain, computed offline by the rule the service checks
 * (`domainRecordName` and `domainRecordValue` of src/api/domains.ts). A DNS resource of any DNS
 * provider can publish it in the same apply that creates the organization and waits for the
 * verification, with no second apply and no read of the service.
 */
import { domainRecordName, domainRecordValue } from '../../api/domain-record';
import { domainProblem, normalizeDomain } from '../../api/validation';
import type { ProviderFunction } from '../../tfplugin/framework/function';

/** The function's name. */
export const DOMAIN_VERIFICATION_RECORD_FUNCTION = 'domain_verification_record';

/** The result type: the record's DNS name and TXT value. */
const RECORD_TYPE = ['object', { name: 'string', value: 'string' }] as const;

/** The `domain_verification_record` function. */
export const domainVerificationRecordFunction: ProviderFunction = {
  name: DOMAIN_VERIFICATION_RECORD_FUNCTION,
  summary: 'The DNS TXT record that verifies an organization\'s domain',
  description:
    'Returns the DNS TXT record that proves an organization controls a domain, as an object with `name` ' +
    '(`_org-domain-ownership.<domain>`) and `value` (the hex SHA-256 of `"<domain> <organization id>"`, the hosted ' +
    'service\'s rule). It is computed from the arguments alone, so a DNS record resource of any DNS provider can use it in ' +
    'the same configuration as `orgadmin_organization_domain_verification`. The domain is taken in lower case without a ' +
    'trailing dot, as the service stores it.',
  parameters: [
    { name: 'organization_id', type: 'string', description: 'The organization\'s id (`orgadmin_organization.<name>.id`).' },
    { name: 'domain', type: 'string', description: 'One of the organization\'s domains, e.g. `globex.com`.' },
  ],
  returnType: RECORD_TYPE,
  run([organizationId, domain], errors) {
    if (String(organizationId).trim() === '') errors.argument(0, 'the organization id is empty');
    const problem = domainProblem(String(domain));
    if (problem) errors.argument(1, `the domain ${JSON.stringify(domain)} ${problem}`);
    if (errors.hasErrors()) return null;
    const normalized = normalizeDomain(String(domain));
    return { name: domainRecordName(normalized), value: domainRecordValue(String(organizationId), normalized) };
  },
};
