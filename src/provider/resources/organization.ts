/**
 * `orgadmin_organization`: one organization of a realm. Everything but the realm updates in place.
 *
 * `domains` and `attributes` are optional and computed. State always holds the service's values
 * (read and import fill them), so a configuration that sets them plans no change right after an
 * import. Left out of the configuration (null), they are not managed: the plan keeps the prior
 * state's value, so the provider neither reports nor wipes values set outside Terraform (the
 * Keycloak provider wiped them on every apply, keycloak#1031). Setting them (even to an empty set
 * or map) makes them managed: drift shows and apply enforces.
 */
import { randomUUID } from 'node:crypto';
import type { Organization, OrganizationInput } from '../../api';
import { attributeKeyProblem, attributeValueProblem, displayNameProblem, domainProblem, nameProblem, normalizeDomain, urlProblem } from '../../api/validation';
import { ConflictError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { outcomeUnknown } from '../outcome';
import type { Diagnostics, ObjectValue, PlanModification, Resource, Value } from '../../tfplugin/framework/types';
import { parseImportId, type ImportIdForm } from '../import-id';
import { containsUnknown, isUnknown } from '../../tfplugin/protocol/unknown';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringList, knownStringListMap, quote, sameStringSet } from '../values';
import {
  adoptOrganization,
  clearCreationMarker,
  CREATION_MARKER,
  findOwnCreation,
  hasCreationMarker,
  planName,
  reportNameTaken,
  target,
  userAttributes,
} from './organization-creation';

/** The resource's type name. */
export const ORGANIZATION_RESOURCE_TYPE = 'orgadmin_organization';

/** How an organization is imported (`terraform import`, `import {}` blocks; also `provider::orgadmin::parse_import_id`). */
export const ORGANIZATION_IMPORT_ID: ImportIdForm = { typeName: ORGANIZATION_RESOURCE_TYPE, segments: ['ID'], example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f' };

/** Validates the organization's own attributes (shared by the resource's validate). */
function validateOrganizationConfig(config: ObjectValue, diags: Diagnostics): void {
  // Each problem names the value's length, not the value: a name of 300 characters is no help.
  const name = knownString(config['name']);
  const nameIssue = name === undefined ? undefined : nameProblem(name);
  if (name !== undefined && nameIssue) {
    diags.error('Invalid organization name', `\`name\` ${nameIssue}${name.trim() === '' ? '' : ` (it has ${name.length})`}.`, ['name']);
  }
  const displayName = knownString(config['display_name']);
  const displayNameIssue = displayName === undefined ? undefined : displayNameProblem(displayName);
  if (displayName !== undefined && displayNameIssue) {
    diags.error('Invalid display name', `\`display_name\` ${displayNameIssue} (it has ${displayName.length}).`, ['display_name']);
  }
  const url = knownString(config['url']);
  if (url !== undefined) {
    const problem = urlProblem(url);
    if (problem) diags.error('Invalid organization URL', `\`url\` ${quote(url)} ${problem}.`, ['url']);
  }
  const domains = config['domains'];
  if (Array.isArray(domains)) {
    for (const domain of domains) {
      if (typeof domain !== 'string') continue;
      const problem = domainProblem(domain);
      if (problem) {
        diags.error('Invalid domain', `The domain ${quote(domain)} ${problem}.`, ['domains']);
        continue;
      }
      const normalized = normalizeDomain(domain);
      // The state holds what the service stores; written otherwise, the value would differ from it
      // (and two spellings of one domain would be two elements of the set).
      if (normalized !== domain) {
        diags.error(
          'Domain not in its stored form',
          `The domain ${quote(domain)} is stored by the service as ${quote(normalized)} (lowercase, without spaces or a trailing dot). Write it that way${domain.toLowerCase() !== domain ? ' (`lower(...)` does it for a computed value)' : ''}.`,
          ['domains'],
        );
      }
    }
  }
  const attributes = config['attributes'];
  if (attributes !== null && attributes !== undefined && !isUnknown(attributes) && typeof attributes === 'object' && !Array.isArray(attributes)) {
    for (const [key, values] of Object.entries(attributes)) {
      const keyIssue = attributeKeyProblem(key);
      if (keyIssue) {
        diags.error('Invalid attribute name', `The attribute name ${quote(key)} ${keyIssue}.`, ['attributes', key]);
        continue;
      }
      if (!Array.isArray(values)) continue;
      values.forEach((value, index) => {
        const valueIssue = typeof value === 'string' ? attributeValueProblem(value) : undefined;
        if (valueIssue) diags.error('Invalid attribute value', `Value ${index} of attribute ${quote(key)} ${valueIssue}.`, ['attributes', key]);
      });
    }
  }
  validateRealm(config['realm'], diags);
}

/** Two domain lists name the same domains in the form the service stores them (`normalizeDomain`). */
function sameDomains(a: readonly string[], b: readonly string[]): boolean {
  return sameStringSet(a.map(normalizeDomain), b.map(normalizeDomain));
}

/**
 * The state for a remote organization, in the form the service stores it (domains normalized; the
 * configuration must write them so, see validation). Domains and attributes are always filled,
 * managed or not: whether they are managed is the configuration's business, decided at plan time.
 */
function stateFromOrganization(org: Organization, realm: string): ObjectValue {
  return {
    id: org.id,
    realm: org.realm || realm,
    name: org.name,
    display_name: org.displayName ?? null,
    url: org.url ?? null,
    domains: [...org.domains],
    attributes: cloneAttributes(userAttributes(org.attributes)),
  };
}

/**
 * The resource's own planning of `domains` and `attributes`, after the framework's (which, for
 * these `useStateForUnknown` attributes, keeps the prior value when the configuration leaves them
 * null on update and plans them unknown on create).
 *
 * - Create, left out: planned as the service will hold them, an empty set and map (the service
 *   creates an organization without domains or attributes when the body leaves them out), so the
 *   plan shows known values and the applied state matches it.
 * - Configured domains equal to the prior state's once normalized: planned as the prior value.
 *   Terraform accepts the prior value for a configured attribute ("semantically equal"); it keeps
 *   an import (which holds the service's lowercase spelling) or a case-only edit from planning an
 *   update that would change nothing on the service.
 */
function planDomainsAndAttributes(config: ObjectValue, priorState: ObjectValue | null, plan: PlanModification): void {
  if (priorState === null) {
    if ((config['domains'] ?? null) === null) plan.plannedState['domains'] = [];
    if ((config['attributes'] ?? null) === null) plan.plannedState['attributes'] = {};
    return;
  }
  const configured = config['domains'] ?? null;
  if (configured === null || containsUnknown(configured)) return;
  const configuredList = knownStringList(configured);
  const priorList = knownStringList(priorState['domains']);
  if (configuredList !== undefined && priorList !== undefined && sameDomains(configuredList, priorList)) {
    plan.plannedState['domains'] = priorList;
  }
}

function cloneAttributes(attributes: Record<string, string[]>): { [key: string]: Value } {
  return Object.fromEntries(Object.entries(attributes).map(([key, values]) => [key, [...values]]));
}


/** True when the configuration sets `attribute` (even to an empty value): Terraform then manages it. */
function isManaged(config: ObjectValue, attribute: 'domains' | 'attributes'): boolean {
  return (config[attribute] ?? null) !== null;
}

/**
 * The body of create and update from a planned state. Domains and attributes the configuration
 * leaves out are left out of the body too (on update the caller fills the attributes, which the
 * service would otherwise clear).
 */
function organizationInput(planned: ObjectValue, config: ObjectValue): OrganizationInput {
  const input: OrganizationInput = {
    name: knownString(planned['name']) ?? '',
    displayName: knownString(planned['display_name']) ?? null,
    url: knownString(planned['url']) ?? null,
  };
  const domains = isManaged(config, 'domains') ? knownStringList(planned['domains']) : undefined;
  if (domains !== undefined) input.domains = [...new Set(domains.map(normalizeDomain))];
  const attributes = isManaged(config, 'attributes') ? knownStringListMap(planned['attributes']) : undefined;
  if (attributes !== undefined) input.attributes = attributes;
  return input;
}

/** The `orgadmin_organization` resource. */
export const organizationResource: Resource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'An organization of a realm of the Organization Administration Service.\n\n' +
      '`domains` and `attributes` always hold the service\'s values in state, but are managed only when set: left out, ' +
      'values set outside Terraform are kept and not reported as drift. Removing them from the configuration stops ' +
      'managing them without deleting them; set them to an empty set or map to delete every value.\n\n' +
      'Import by `ID` or `REALM/ID`, e.g. `terraform import orgadmin_organization.example 6f1d3c0e-…`. An import reads ' +
      '`domains` and `attributes` too, so a configuration that sets them to the values the organization has plans no ' +
      'change.',
    attributes: {
      id: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The organization\'s id, assigned by the service.',
      },
      realm: resourceRealmAttribute,
      name: {
        type: 'string',
        required: true,
        description: 'The organization\'s name: unique in the realm, 1–255 characters. Changing it renames the organization in place.',
      },
      display_name: {
        type: 'string',
        optional: true,
        description: 'A human-friendly name shown instead of `name`.',
      },
      url: {
        type: 'string',
        optional: true,
        description: 'The organization\'s web address: an absolute `http` or `https` URL of at most 2048 characters.',
      },
      domains: {
        type: ['set', 'string'],
        optional: true,
        computed: true,
        useStateForUnknown: true,
        description:
          'The organization\'s DNS domains, e.g. `["example.com"]`. Compared and sent in the form the service stores ' +
          '(lowercase, without surrounding spaces or a trailing dot); a domain that differs from the service\'s only in ' +
          'that form is not a change, and two such spellings of one domain are an error. ' +
          'Left out: not managed (domains set outside Terraform are kept and not reported as drift); the attribute ' +
          'still reads the organization\'s current domains. Set to `[]` to remove every domain.',
      },
      attributes: {
        type: ['map', ['list', 'string']],
        optional: true,
        computed: true,
        useStateForUnknown: true,
        description:
          'Custom attributes: each name holds a list of strings, e.g. `{ tier = ["gold"] }`. ' +
          'Left out: not managed (attributes set outside Terraform are kept, not reported as drift, and sent back ' +
          'unchanged on update); the attribute still reads the organization\'s current attributes. ' +
          'Set to `{}` to remove every attribute.',
      },
    },
  },

  validate(config, diags) {
    validateOrganizationConfig(config, diags);
  },

  async modifyPlan(ctx, req, plan, diags) {
    planRealm(ctx, req.config, req.priorState, plan);
    planDomainsAndAttributes(req.config, req.priorState, plan);
    await planName(ctx, { priorState: req.priorState, plannedState: plan.plannedState, signal: signalOf(req) }, diags);
  },

  async create(ctx, req, diags) {
    const planned = req.plannedState;
    const realm = knownString(planned['realm']) ?? ctx.realm;
    const signal = signalOf(req);
    const input = organizationInput(planned, req.config);
    const op = { action: 'create organization', target: target(realm, undefined, input.name), permission: 'create-organization' } as const;
    const adoptedId = knownString(planned['id']);
    if (adoptedId !== undefined) {
      // Planned as the adoption of an interrupted create: bring it to the configuration.
      const adopted = await adoptOrganization(ctx, realm, adoptedId, input, signal, diags);
      if (adopted !== 'gone') return adopted === 'failed' ? null : { ...planned, id: adoptedId, realm };
    }
    // The client-chosen id makes the create repeatable; the marker (holding that id) proves
    // later that this create made the organization (see ./organization-creation).
    const creationId = adoptedId ?? randomUUID();
    const body: OrganizationInput = { ...input, id: creationId, attributes: { ...(input.attributes ?? {}), [CREATION_MARKER]: [creationId] } };
    let id: string;
    try {
      id = await ctx.client.createOrganization(body, { realm, ...(signal ? { signal } : {}) });
    } catch (error) {
      const unknownOutcome = error instanceof ConflictError || outcomeUnknown(error);
      const own = unknownOutcome ? await findOwnCreation(ctx, realm, creationId, input.name, signal) : undefined;
      if (own !== undefined) {
        // An earlier attempt of this create succeeded and its answer was lost: that is our organization.
        ctx.logger.info('create answer lost; found the organization it made', { realm, id: own.id });
        return { ...planned, id: own.id, realm };
      }
      if (error instanceof ConflictError) await reportNameTaken(ctx, realm, input.name, error, 'create organization', diags);
      else reportError(diags, error, op, reportingFor(ctx, realm));
      return null;
    }
    ctx.logger.info('created organization', { realm, id });
    // Domains and attributes left out of the body start empty on the service: planned so.
    return { ...planned, id, realm };
  },

  async read(ctx, req, diags) {
    const state = req.state;
    const id = knownString(state['id']) ?? '';
    const realm = knownString(state['realm']) ?? ctx.realm;
    try {
      const org = await ctx.client.getOrganization(id, callOptions(realm, signalOf(req)));
      ctx.plannedNames.record(org.id);
      if (hasCreationMarker(org)) await clearCreationMarker(ctx, realm, org);
      return stateFromOrganization(org, realm);
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning(
          'Organization removed outside Terraform',
          `The organization ${target(realm, id, knownString(state['name']))} no longer exists. It is removed from the state; the next plan creates it again.`,
        );
        return null;
      }
      reportError(diags, error, { action: 'read organization', target: target(realm, id), permission: 'view-organizations' }, reportingFor(ctx, realm));
      return state;
    }
  },

  async update(ctx, req, diags) {
    const planned = req.plannedState;
    const id = knownString(req.priorState['id']) ?? '';
    const realm = knownString(req.priorState['realm']) ?? ctx.realm;
    const input = organizationInput(planned, req.config);
    const op = { action: 'update organization', target: target(realm, id, input.name), permission: 'manage-organizations' } as const;
    if (input.attributes === undefined) {
      // The service replaces attributes on update (absent means cleared): send the remote ones
      // back so that attributes not managed by Terraform survive.
      try {
        const remote = await ctx.client.getOrganization(id, callOptions(realm, signalOf(req)));
        // The organization is in a state now: its creation marker, if still there, can go.
        input.attributes = userAttributes(remote.attributes);
      } catch (error) {
        reportError(diags, error, { ...op, action: 'read organization before updating it', permission: 'view-organizations' }, reportingFor(ctx, realm));
        return null;
      }
    }
    try {
      await ctx.client.updateOrganization(id, input, callOptions(realm, signalOf(req)));
    } catch (error) {
      if (error instanceof ConflictError) await reportNameTaken(ctx, realm, input.name, error, 'rename organization', diags);
      else reportError(diags, error, op, reportingFor(ctx, realm));
      return null;
    }
    // Unmanaged domains and attributes keep their planned (prior) value, as Terraform requires of
    // the applied state; the next refresh records any change made outside Terraform meanwhile.
    return { ...planned, id, realm };
  },

  async delete(ctx, req, diags) {
    const id = knownString(req.priorState['id']) ?? '';
    const realm = knownString(req.priorState['realm']) ?? ctx.realm;
    try {
      await ctx.client.deleteOrganization(id, callOptions(realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return; // already gone: the goal of delete
      reportError(diags, error, { action: 'delete organization', target: target(realm, id, knownString(req.priorState['name'])), permission: 'manage-organizations' }, reportingFor(ctx, realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, ORGANIZATION_IMPORT_ID, diags);
    if (!parsed) return null;
    const realm = parsed.realm ?? ctx.realm;
    const id = parsed.ids[0]!;
    let org: Organization;
    try {
      org = await ctx.client.getOrganization(id, callOptions(realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.error('Cannot import organization', `There is no organization with id ${quote(id)} in realm ${quote(realm)}. Check the id (and the realm: import by \`REALM/ID\` for another realm than the provider's).`);
      } else {
        reportError(diags, error, { action: 'import organization', target: target(realm, id), permission: 'view-organizations' }, reportingFor(ctx, realm));
      }
      return null;
    }
    // Domains and attributes are imported too: a configuration that sets them to these values then
    // plans no change, and one that leaves them out keeps them unmanaged (optional + computed).
    return stateFromOrganization(org, realm);
  },
};
