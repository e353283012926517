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
import { displayNameProblem, domainProblem, nameProblem, normalizeDomain, urlProblem } from '../../api/validation';
import { ConflictError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor, serviceAnswer } from '../diagnostics';
import { outcomeUnknown } from '../outcome';
import type { Diagnostics, ObjectValue, PlanModification, Resource, Value } from '../../tfplugin/framework/types';
import { parseImportId, type ImportIdForm } from '../import-id';
import { containsUnknown, isUnknown } from '../../tfplugin/protocol/unknown';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringList, knownStringListMap, quote, sameStringSet } from '../values';
import {
  CREATION_MARKER,
  findOrganizationByName,
  hasCreationMarker,
  isFromCreation,
  nameTakenAdvice,
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
    const seen = new Map<string, string>();
    for (const domain of domains) {
      if (typeof domain !== 'string') continue;
      const problem = domainProblem(domain);
      if (problem) {
        diags.error('Invalid domain', `The domain ${quote(domain)} ${problem}.`, ['domains']);
        continue;
      }
      const normalized = normalizeDomain(domain);
      const earlier = seen.get(normalized);
      if (earlier !== undefined) {
        diags.error(
          'Duplicate domain',
          `The domains ${quote(earlier)} and ${quote(domain)} are the same domain (case, spaces and a trailing dot do not count); keep one.`,
          ['domains'],
        );
      }
      seen.set(normalized, domain);
    }
  }
  const attributes = config['attributes'];
  if (attributes !== null && attributes !== undefined && !isUnknown(attributes) && typeof attributes === 'object' && !Array.isArray(attributes)) {
    for (const key of Object.keys(attributes)) {
      if (key.trim() === '') diags.error('Invalid attribute name', 'An attribute name in `attributes` is empty.', ['attributes']);
    }
  }
  validateRealm(config['realm'], diags);
}

/** Two domain lists name the same domains in the form the service stores them (`normalizeDomain`). */
function sameDomains(a: readonly string[], b: readonly string[]): boolean {
  return sameStringSet(a.map(normalizeDomain), b.map(normalizeDomain));
}

/**
 * Domains for state: keeps the prior state's spelling (the configuration's, once applied) when the
 * service holds the same domains, so a mixed-case domain does not show as drift forever; otherwise
 * the service's domains.
 */
function domainsForState(prior: Value | undefined, remote: readonly string[]): string[] {
  const priorList = knownStringList(prior);
  return priorList !== undefined && sameDomains(priorList, remote) ? priorList : [...remote];
}

/**
 * The state for a remote organization. `prior` is the state being refreshed (null on import): only
 * its domain spelling is kept. Domains and attributes are always filled, managed or not: whether
 * they are managed is the configuration's business, decided at plan time.
 */
function stateFromOrganization(org: Organization, realm: string, prior: ObjectValue | null): ObjectValue {
  return {
    id: org.id,
    realm: org.realm || realm,
    name: org.name,
    display_name: org.displayName ?? null,
    url: org.url ?? null,
    domains: domainsForState(prior?.['domains'], org.domains),
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
  const result: { [key: string]: Value } = {};
  for (const [key, values] of Object.entries(attributes)) result[key] = [...values];
  return result;
}

/** The target phrase of an operation on one organization: `"ID" ("NAME") in realm "REALM"`. */
function target(realm: string, id: string | undefined, name?: string): string {
  const parts = [id, name].filter((part): part is string => part !== undefined).map(quote);
  const what = parts.length === 2 ? `${parts[0]} (${parts[1]})` : parts[0] ?? '';
  return `${what} in realm ${quote(realm)}`;
}

function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Reports a 409 on create or rename: names the organization that already has the name (looked up
 * by exact name) and how to import it.
 */
async function reportNameTaken(
  ctx: OrgAdminProviderContext,
  realm: string,
  name: string,
  error: ConflictError,
  action: string,
  diags: Diagnostics,
  existing?: Organization,
): Promise<void> {
  let existingId = existing?.id;
  if (existingId === undefined) {
    try {
      existingId = (await findOrganizationByName(ctx, realm, name))?.id;
    } catch (lookupError) {
      ctx.logger.warn('could not look up the organization that holds a name', { realm, error: String(lookupError) });
    }
  }
  const answer = capitalizeFirst(serviceAnswer(error.status, error.error, error.errorDescription));
  const detail =
    existingId !== undefined
      ? `${answer}\n\n${nameTakenAdvice(realm, name, existingId)}`
      : `${answer}\n\nAn organization named ${quote(name)} already exists in realm ${quote(realm)} (its id could not be looked up with these credentials). ` +
        'Choose another `name`, or import the existing organization (`terraform import <resource address> <id>`, or an `import {}` block).';
  diags.error(`Failed to ${action}: the name ${quote(name)} is taken`, detail, ['name']);
}

/**
 * Plan-time checks of a planned name (create, or rename): refuses a name that another resource of
 * this configuration also plans, or that an organization outside this state holds; adopts the
 * organization left by an interrupted create of this configuration (see `./organization-creation`).
 */
async function planName(
  ctx: OrgAdminProviderContext,
  req: { priorState: ObjectValue | null; plannedState: ObjectValue; signal?: AbortSignal },
  diags: Diagnostics,
): Promise<void> {
  const name = knownString(req.plannedState['name']);
  const realm = knownString(req.plannedState['realm']);
  if (name === undefined || realm === undefined) return; // decided at apply time
  const priorId = knownString(req.priorState?.['id']);
  const renamed = req.priorState !== null && knownString(req.priorState['name']) !== name;
  if (req.priorState !== null && !renamed) return;
  const other = ctx.plannedNames.claim(realm, name, priorId ?? `create#${randomUUID()}`);
  if (other !== undefined) {
    diags.error(
      'Duplicate organization name',
      `Another orgadmin_organization in this configuration also plans the name ${quote(name)} in realm ${quote(realm)}. ` +
        'Names are unique in a realm: give each organization its own `name` (two resources must not manage one organization).',
      ['name'],
    );
    return;
  }
  let existing: Organization | undefined;
  try {
    existing = await findOrganizationByName(ctx, realm, name, req.signal);
  } catch (error) {
    // Without view-organizations the check cannot be made here; the apply still reports a 409.
    ctx.logger.debug('could not check at plan time whether the name is taken', { realm, error: String(error) });
    return;
  }
  if (existing === undefined || existing.id === priorId) return;
  if (req.priorState === null && hasCreationMarker(existing) && !ctx.plannedNames.isRecorded(existing.id)) {
    req.plannedState['id'] = existing.id;
    diags.warning(
      'Adopting an organization left by an interrupted apply',
      `The organization ${target(realm, existing.id, name)} was created by an earlier orgadmin apply that did not record it in a state ` +
        '(its answer was lost, or terraform was stopped). This resource takes it over and updates it to the configuration; no second organization is created.',
    );
    return;
  }
  diags.error(`The name ${quote(name)} is taken`, nameTakenAdvice(realm, name, existing.id), ['name']);
}

/**
 * After a create whose outcome is unknown (the answer was lost, or a retry met the first attempt's
 * organization): the organization this create made, found by its client-chosen id or, on a service
 * that ignores client-chosen ids, by name and marker. Undefined when there is none (or it cannot
 * be looked up now).
 */
async function findOwnCreation(
  ctx: OrgAdminProviderContext,
  realm: string,
  creationId: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<Organization | undefined> {
  const options = { realm, ...(signal ? { signal } : {}) };
  try {
    const byId = await ctx.client.getOrganization(creationId, options);
    if (isFromCreation(byId, creationId)) return byId;
  } catch (error) {
    if (!isObjectNotFound(error)) {
      ctx.logger.warn('could not check whether the create happened', { realm, error: String(error) });
      return undefined;
    }
  }
  try {
    const byName = await findOrganizationByName(ctx, realm, name, signal);
    return byName !== undefined && isFromCreation(byName, creationId) ? byName : undefined;
  } catch (error) {
    ctx.logger.warn('could not check whether the create happened', { realm, error: String(error) });
    return undefined;
  }
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

/**
 * Brings an organization adopted at plan time to the configuration (the marker stays until a
 * state holds it). `'gone'` when it vanished since the plan: the caller creates it with that id.
 */
async function adoptOrganization(
  ctx: OrgAdminProviderContext,
  realm: string,
  id: string,
  input: OrganizationInput,
  signal: AbortSignal | undefined,
  diags: Diagnostics,
): Promise<'adopted' | 'gone' | 'failed'> {
  const options = { realm, ...(signal ? { signal } : {}) };
  try {
    const remote = await ctx.client.getOrganization(id, options);
    const marker = remote.attributes[CREATION_MARKER] ?? [id];
    const attributes = input.attributes ?? userAttributes(remote.attributes);
    await ctx.client.updateOrganization(id, { ...input, attributes: { ...attributes, [CREATION_MARKER]: marker } }, options);
    ctx.logger.info('adopted organization left by an interrupted apply', { realm, id });
    return 'adopted';
  } catch (error) {
    if (isObjectNotFound(error)) return 'gone';
    if (error instanceof ConflictError) await reportNameTaken(ctx, realm, input.name, error, 'create organization', diags);
    else reportError(diags, error, { action: 'create organization', target: target(realm, id, input.name), permission: 'manage-organizations' }, reportingFor(ctx, realm));
    return 'failed';
  }
}

/**
 * Clears the creation marker of an organization read from a state: the state was saved with it, so
 * no other configuration may adopt it any more. Best effort: a key without manage-organizations
 * (a read-only plan) leaves it for a later run.
 */
async function clearCreationMarker(ctx: OrgAdminProviderContext, realm: string, org: Organization): Promise<void> {
  const body: OrganizationInput = {
    name: org.name,
    displayName: org.displayName ?? null,
    url: org.url ?? null,
    attributes: userAttributes(org.attributes),
  };
  try {
    await ctx.client.updateOrganization(org.id, body, { realm });
  } catch (error) {
    ctx.logger.debug('could not clear the creation marker', { realm, id: org.id, error: String(error) });
  }
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
      return stateFromOrganization(org, realm, state);
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
    return stateFromOrganization(org, realm, null);
  },
};
