/**
 * `orgadmin_organization_domain_verification`: waits until the service has verified one domain of
 * an organization, as `aws_acm_certificate_validation` waits for a certificate. Create asks the
 * service to look the DNS TXT record up, and asks again with backoff (../domain-wait.ts) until it
 * is verified or `timeouts.create` runs out; a DNS record resource of any DNS provider, fed by
 * `provider::orgadmin::domain_verification_record`, publishes the record in the same apply.
 *
 * Deleting it only forgets the wait: the service keeps a verification while the domain stays in
 * the organization's list (removing the domain from `domains` is how a verification ends), so no
 * destroy or replacement of this resource removes a sign-in path.
 */
import { domainRecordName, domainRecordValue } from '../../api/domain-record';
import { domainProblem, normalizeDomain } from '../../api/validation';
import type { DomainVerification } from '../../api';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { DEFAULT_CREATE_TIMEOUT_MS, parseDuration, waitForVerification } from '../domain-wait';
import { parseImportId, type ImportIdForm } from '../import-id';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import type { Diagnostics, ObjectValue, Resource, Value } from '../../tfplugin/framework/types';
import { knownString, quote } from '../values';

/** The resource's type name. */
export const DOMAIN_VERIFICATION_RESOURCE_TYPE = 'orgadmin_organization_domain_verification';

/** How a verification is imported: `ORG/DOMAIN` or `REALM/ORG/DOMAIN`. */
export const DOMAIN_VERIFICATION_IMPORT_ID: ImportIdForm = { typeName: DOMAIN_VERIFICATION_RESOURCE_TYPE, segments: ['ORG', 'DOMAIN'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/globex.com' };

interface DomainKey {
  organizationId: string;
  domain: string;
  realm: string;
}

function keyOf(ctx: OrgAdminProviderContext, state: ObjectValue): DomainKey {
  return {
    organizationId: knownString(state['organization_id']) ?? '',
    domain: normalizeDomain(knownString(state['domain']) ?? ''),
    realm: knownString(state['realm']) ?? ctx.realm,
  };
}

const describe = (key: DomainKey): string => `domain ${quote(key.domain)} of organization ${quote(key.organizationId)} (realm ${quote(key.realm)})`;

/** The state of a verified domain; `domain` and `timeouts` as configured. */
function stateOf(key: DomainKey, domainValue: Value, timeouts: Value): ObjectValue {
  return {
    id: `${key.organizationId}/${key.domain}`,
    organization_id: key.organizationId,
    domain: domainValue,
    realm: key.realm,
    record_name: domainRecordName(key.domain),
    record_value: domainRecordValue(key.organizationId, key.domain),
    verified: true,
    timeouts,
  };
}

/** The create timeout of `timeouts` in milliseconds (the default when not set). */
function createTimeoutMs(timeouts: Value | undefined): number {
  const create = timeouts !== null && typeof timeouts === 'object' && !Array.isArray(timeouts) ? knownString((timeouts as ObjectValue)['create']) : undefined;
  return (create === undefined ? undefined : parseDuration(create)) ?? DEFAULT_CREATE_TIMEOUT_MS;
}

/** The sentence that says what the last lookup found. */
function lastFinding(last: DomainVerification): string {
  return last.verification ? `${last.verification.detail}` : 'The service did not say what its lookup found.';
}

/** The `orgadmin_organization_domain_verification` resource. */
export const domainVerificationResource: Resource<OrgAdminProviderContext> = {
  typeName: DOMAIN_VERIFICATION_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'Waits until the service has verified one of an organization\'s domains by its DNS TXT record. Create asks the service ' +
      'to look the record up and asks again with exponential backoff (1 s doubling to 30 s) until the domain is verified or ' +
      '`timeouts.create` (default 10 minutes) runs out; the error then names the record that was looked up and what was found.\n\n' +
      'Publish the record with any DNS provider in the same configuration: `provider::orgadmin::domain_verification_record(org_id, domain)` ' +
      'computes its name and value offline. The domain must be in the organization\'s `domains`.\n\n' +
      'Destroying this resource only stops tracking: the verification stays on the service while the domain stays in the ' +
      'organization\'s `domains`. A verification lost outside Terraform (the domain removed, or verified by no one) is reported ' +
      'with a warning and waited for again by the next apply.\n\n' +
      'Import by `ORG/DOMAIN` or `REALM/ORG/DOMAIN`, e.g. `terraform import orgadmin_organization_domain_verification.globex 6f1d…/globex.com`.',
    attributes: {
      id: { type: 'string', computed: true, useStateForUnknown: true, description: 'The verification\'s id: `ORGANIZATION_ID/DOMAIN`.' },
      organization_id: { type: 'string', required: true, requiresReplace: true, description: 'The organization\'s id.' },
      domain: { type: 'string', required: true, requiresReplace: true, description: 'One of the organization\'s domains, e.g. `globex.com` (taken in lower case).' },
      realm: resourceRealmAttribute,
      record_name: { type: 'string', computed: true, useStateForUnknown: true, description: 'The DNS name of the TXT record that was looked up.' },
      record_value: { type: 'string', computed: true, useStateForUnknown: true, description: 'The value the TXT record holds.' },
      verified: { type: 'bool', computed: true, useStateForUnknown: true, description: 'Always true in state: a create that cannot verify fails.' },
      timeouts: {
        type: ['object', { create: 'string' }],
        optional: true,
        description: 'How long create waits: `timeouts = { create = "10m" }` (a duration such as `30s`, `10m`, `1h`; default 10 minutes).',
      },
    },
  },

  validate(config, diags) {
    const domain = knownString(config['domain']);
    const problem = domain === undefined ? undefined : domainProblem(domain);
    if (problem) diags.error('Invalid domain', `\`domain\` ${quote(domain!)} ${problem}.`, ['domain']);
    const orgId = knownString(config['organization_id']);
    if (orgId !== undefined && (orgId.trim() === '' || orgId.includes('/'))) diags.error('Invalid organization_id', '`organization_id` must be an organization\'s id: not empty, without "/".', ['organization_id']);
    const timeouts = config['timeouts'];
    if (timeouts !== null && typeof timeouts === 'object' && !Array.isArray(timeouts)) {
      const create = knownString((timeouts as ObjectValue)['create']);
      if (create !== undefined && parseDuration(create) === undefined) {
        diags.error('Invalid timeouts', `\`timeouts.create\` ${quote(create)} is not a positive duration; write it like \`30s\`, \`10m\` or \`1h30m\`.`, ['timeouts', 'create']);
      }
    }
    validateRealm(config['realm'], diags);
  },

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    const org = knownString(req.config['organization_id']);
    const domain = knownString(req.config['domain']);
    if (org === undefined || domain === undefined) return Promise.resolve();
    const normalized = normalizeDomain(domain);
    // Known at plan: the record follows from the two values, so a DNS resource can use it.
    plan.plannedState['id'] = `${org}/${normalized}`;
    plan.plannedState['record_name'] = domainRecordName(normalized);
    plan.plannedState['record_value'] = domainRecordValue(org, normalized);
    plan.plannedState['verified'] = true;
    return Promise.resolve();
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const signal = signalOf(req);
    const timeoutMs = createTimeoutMs(req.plannedState['timeouts']);
    const verify = () => ctx.client.verifyDomain(key.organizationId, key.domain, callOptions(key.realm, signal));
    let outcome: Awaited<ReturnType<typeof waitForVerification>>;
    try {
      outcome = await waitForVerification(verify, timeoutMs, ctx.clock, signal);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.error(
          'Domain not found',
          `Cannot verify ${describe(key)}: the organization does not exist or does not list the domain (the service answered HTTP 404). ` +
            'Add the domain to the organization\'s `domains` (reference `orgadmin_organization.<name>.id` so that it comes first).',
          ['domain'],
        );
      } else {
        reportError(diags, error, { action: 'verify organization domain', target: describe(key), permission: 'manage-organizations', path: ['domain'] }, reportingFor(ctx, key.realm));
      }
      return null;
    }
    if (!outcome.verified) {
      const record = domainRecordName(key.domain);
      diags.error(
        'Domain not verified in time',
        `The service could not verify ${describe(key)} within ${Math.round(timeoutMs / 1000)} s (${outcome.attempts} lookups). ` +
          `It looks up the TXT record ${quote(record)}, which must hold ${quote(domainRecordValue(key.organizationId, key.domain))}. ` +
          `Last lookup: ${lastFinding(outcome.last)} Publish the record (DNS changes can take a while to reach the service's resolver), ` +
          'or give the wait longer with `timeouts = { create = "30m" }`.',
        ['domain'],
      );
      return null;
    }
    ctx.logger.info('domain verified', { organizationId: key.organizationId, domain: key.domain, attempts: outcome.attempts });
    return stateOf(key, req.plannedState['domain']!, req.plannedState['timeouts'] ?? null);
  },

  async read(ctx, req, diags) {
    const key = keyOf(ctx, req.state);
    try {
      const found = await ctx.client.getDomain(key.organizationId, key.domain, callOptions(key.realm, signalOf(req)));
      if (found.verified) return stateOf(key, req.state['domain']!, req.state['timeouts'] ?? null);
    } catch (error) {
      if (!isObjectNotFound(error)) {
        reportError(diags, error, { action: 'read organization domain', target: describe(key), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
        return req.state;
      }
    }
    diags.warning(
      'Domain verification lost outside Terraform',
      `${describe(key)} is no longer verified (or no longer in the organization's domains). It is removed from the state; the next apply waits for its verification again.`,
    );
    return null;
  },

  async update(_ctx, req) {
    // organization_id and domain force replacement; timeouts and realm change in place.
    return req.plannedState;
  },

  async delete() {
    // Only the tracking ends: the service keeps the verification while the domain is listed.
  },

  async importState(ctx, req, diags: Diagnostics) {
    const parsed = parseImportId(req.id, DOMAIN_VERIFICATION_IMPORT_ID, diags);
    if (!parsed) return null;
    const key: DomainKey = { organizationId: parsed.ids[0]!, domain: normalizeDomain(parsed.ids[1]!), realm: parsed.realm ?? ctx.realm };
    try {
      const found = await ctx.client.getDomain(key.organizationId, key.domain, callOptions(key.realm, signalOf(req)));
      if (found.verified) return stateOf(key, key.domain, null);
      diags.error('Cannot import: not verified', `${describe(key)} is not verified, so there is no verification to import; let Terraform create the resource, which waits for it.`);
    } catch (error) {
      if (isObjectNotFound(error)) diags.error('Cannot import: domain not found', `The organization does not exist or does not list the domain: ${describe(key)}.`);
      else reportError(diags, error, { action: 'read organization domain', target: describe(key), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
    }
    return null;
  },
};
