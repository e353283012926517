/**
 * `orgadmin_organization_domain` data source: one domain of an organization with its verification
 * state and the DNS TXT record that verifies it (the vendor's `GET …/domains/{domain}`).
 */
import { domainRecordName } from '../../api/domain-record';
import { domainProblem, normalizeDomain } from '../../api/validation';
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import type { DataSource } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { knownString, quote } from '../values';

/** The data source's type name. */
export const ORGANIZATION_DOMAIN_DATA_SOURCE_TYPE = 'orgadmin_organization_domain';

/** The `orgadmin_organization_domain` data source. */
export const organizationDomainDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_DOMAIN_DATA_SOURCE_TYPE,
  schema: {
    description:
      'One domain of an organization: whether it is verified, and the DNS TXT record that verifies it. ' +
      'The record can also be computed offline with `provider::orgadmin::domain_verification_record`.',
    attributes: {
      organization_id: { type: 'string', required: true, description: 'The organization\'s id.' },
      domain: { type: 'string', required: true, description: 'One of the organization\'s domains, e.g. `globex.com` (taken in lower case).' },
      realm: dataSourceRealmAttribute,
      record_name: { type: 'string', computed: true, description: 'The DNS name of the TXT record: `_org-domain-ownership.<domain>`.' },
      record_value: { type: 'string', computed: true, description: 'The value the TXT record must hold.' },
      verified: { type: 'bool', computed: true, description: 'Whether the service verified the domain for this organization.' },
    },
  },

  validate(config, diags) {
    const domain = knownString(config['domain']);
    const problem = domain === undefined ? undefined : domainProblem(domain);
    if (problem) diags.error('Invalid domain', `\`domain\` ${quote(domain!)} ${problem}.`, ['domain']);
    const orgId = knownString(config['organization_id']);
    if (orgId !== undefined && orgId.trim() === '') diags.error('Invalid organization_id', '`organization_id` must not be empty.', ['organization_id']);
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const orgId = knownString(req.config['organization_id'])!;
    const domain = normalizeDomain(knownString(req.config['domain'])!);
    try {
      const found = await ctx.client.getDomain(orgId, domain, { realm });
      return { organization_id: orgId, domain: req.config['domain'] ?? domain, realm, record_name: domainRecordName(found.domain_name), record_value: found.record_value, verified: found.verified };
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.error(
          'Domain not found',
          `Organization ${quote(orgId)} in realm ${quote(realm)} has no domain ${quote(domain)}, or there is no such organization (the service answered HTTP 404). ` +
            'Add the domain to the organization\'s `domains` first.',
          ['domain'],
        );
      } else {
        reportError(diags, error, { action: 'read organization domain', target: `${quote(domain)} of organization ${quote(orgId)}`, permission: 'view-organizations', path: ['domain'] }, reportingFor(ctx, realm));
      }
      return null;
    }
  },
};
