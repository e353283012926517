/**
 * `orgadmin_organization_role`: one role of one organization (name and description).
 *
 * - The organization's default roles (`view-members`, `manage-roles`, …) exist from its creation
 *   and cannot be deleted. Declaring one adopts it without error: create sets the description
 *   when one is configured, destroy leaves the role in place (it only stops being managed).
 * - A role created outside Terraform is never taken over silently: create fails with its import
 *   advice (`ORG_ID/ROLE_NAME`). A create whose answer was lost is settled by reading the role: it is
 *   there, so this create made it (the SDK never repeats the create, which would answer 409).
 * - Deleting a role removes its grants (the service's rule): `orgadmin_organization_member_roles`
 *   that list it refer to its `name`, so Terraform removes them from those first.
 * - Refresh is one request (get the role).
 */
import { isDefaultRole, roleNameProblem } from '../../api/roles';
import type { Role } from '../../api';
import { ConflictError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { parseImportId, type ImportIdForm } from '../import-id';
import { outcomeUnknown } from '../outcome';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import type { Diagnostics, ObjectValue, Resource } from '../../tfplugin/framework/types';
import { knownString, quote } from '../values';
import { importCommands } from '../import-advice';

/** The resource's type name. */
export const ORGANIZATION_ROLE_RESOURCE_TYPE = 'orgadmin_organization_role';

/** The import id form: `ORG_ID/ROLE_NAME`, or `REALM/ORG_ID/ROLE_NAME`. */
export const ORGANIZATION_ROLE_IMPORT_ID: ImportIdForm = {
  typeName: ORGANIZATION_ROLE_RESOURCE_TYPE,
  segments: ['ORG_ID', 'ROLE_NAME'],
  example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/billing',
};

/** The id of a role in state and its import id: `ORG_ID/ROLE_NAME`. */
export function organizationRoleId(organizationId: string, name: string): string {
  return `${organizationId}/${name}`;
}

interface RoleKey {
  organizationId: string;
  name: string;
  realm: string;
}

function keyOf(ctx: OrgAdminProviderContext, state: ObjectValue): RoleKey {
  return {
    organizationId: knownString(state['organization_id']) ?? '',
    name: knownString(state['name']) ?? '',
    realm: knownString(state['realm']) ?? ctx.realm,
  };
}

function describe(key: RoleKey): string {
  return `role ${quote(key.name)} of organization ${quote(key.organizationId)} (realm ${quote(key.realm)})`;
}

function stateOf(key: RoleKey, role: Role): ObjectValue {
  return {
    id: organizationRoleId(key.organizationId, key.name),
    organization_id: key.organizationId,
    name: key.name,
    description: role.description,
    role_id: role.id,
    default: isDefaultRole(key.name),
    realm: key.realm,
  };
}

/**
 * Why a role name cannot be declared, or undefined: the service's name rule, and no `/` (the import
 * id `ORG_ID/ROLE_NAME` uses it as separator).
 */
export function declaredRoleNameProblem(name: string): string | undefined {
  const problem = roleNameProblem(name);
  if (problem) return problem;
  return name.includes('/') ? 'must not contain "/", which separates the organization id and the role name in import ids' : undefined;
}

/** The role as the service has it, or undefined when it does not exist (errors other than 404 are thrown). */
async function readRole(ctx: OrgAdminProviderContext, key: RoleKey, signal?: AbortSignal): Promise<Role | undefined> {
  try {
    return await ctx.client.getRole(key.organizationId, key.name, callOptions(key.realm, signal));
  } catch (error) {
    if (isObjectNotFound(error)) return undefined;
    throw error;
  }
}

/** The configured description when one is set (null or absent: leave it as the service has it). */
const configuredDescription = (config: ObjectValue): string | undefined => knownString(config['description']);

/** Sets the description when one is configured and the role has another; returns the role as it is now. */
async function settleDescription(ctx: OrgAdminProviderContext, key: RoleKey, role: Role, wanted: string | undefined, signal?: AbortSignal): Promise<Role> {
  if (wanted === undefined || wanted === role.description) return role;
  await ctx.client.updateRole(key.organizationId, key.name, { description: wanted }, callOptions(key.realm, signal));
  return { ...role, description: wanted };
}

/** Reports that the role's organization does not exist, on `organization_id`. */
function reportOrganizationMissing(key: RoleKey, diags: Diagnostics): void {
  diags.error(
    'Organization not found',
    `Cannot manage ${describe(key)}: there is no organization with id ${quote(key.organizationId)} in realm ${quote(key.realm)} (the service answered HTTP 404). ` +
      'Check `organization_id`; reference the organization resource (`orgadmin_organization.<name>.id`) so that it is created first.',
    ['organization_id'],
  );
}

/** The detail of the "role exists" error: why nothing is taken over, and how to import it. */
function roleExistsAdvice(key: RoleKey): string {
  const id = organizationRoleId(key.organizationId, key.name);
  return (
    `Organization ${quote(key.organizationId)} in realm ${quote(key.realm)} already has a role named ${quote(key.name)}, and this configuration does not manage it. ` +
    'orgadmin never takes over a role it did not create (destroying it would take its grants away from their holders).\n\n' +
    `To manage it with this resource, import it:\n\n${importCommands(ORGANIZATION_ROLE_RESOURCE_TYPE, id)}\n\nOtherwise choose another \`name\`.`
  );
}

/** The `orgadmin_organization_role` resource. */
export const organizationRoleResource: Resource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_ROLE_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'One role of an organization: a named permission inside that organization, which `orgadmin_organization_member_roles` grants to members.\n\n' +
      'Every organization has the default roles `view-organization`, `delete-organization`, `manage-organization`, `view-members`, ' +
      '`manage-members`, `view-roles`, `manage-roles`, `view-invitations`, `manage-invitations`, `view-identity-providers` and ' +
      '`manage-identity-providers` from its creation; its default admin user holds them all. Declaring a default role adopts it ' +
      '(and sets its description when one is given); destroying it only stops managing it, since default roles cannot be deleted. ' +
      'A default role can also be named in `orgadmin_organization_member_roles` without declaring it.\n\n' +
      'A role that already exists outside Terraform is not taken over: create fails with the import command. Deleting a role ' +
      'removes it from every member who holds it.\n\n' +
      'Import by `ORG_ID/ROLE_NAME` or `REALM/ORG_ID/ROLE_NAME`, e.g. `terraform import orgadmin_organization_role.billing 6f1d…/billing`.',
    attributes: {
      id: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The role\'s id in Terraform: `ORGANIZATION_ID/ROLE_NAME` (also its import id).',
      },
      organization_id: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description: 'The organization\'s id. Changing it replaces the role.',
      },
      name: {
        type: 'string',
        required: true,
        requiresReplace: true,
        description:
          'The role\'s name, unique in the organization (1 to 255 characters, compared exactly, no `/`). A role cannot be renamed: ' +
          'changing the name replaces the role, which takes it away from its holders until they are granted the new one.',
      },
      description: {
        type: 'string',
        optional: true,
        computed: true,
        useStateForUnknown: true,
        description:
          'The role\'s description. Left out, the role keeps the description it has (a default role its standard one, a new role none); ' +
          'set it to `""` to clear one.',
      },
      role_id: {
        type: 'string',
        computed: true,
        useStateForUnknown: true,
        description: 'The role\'s id in the service (a UUID).',
      },
      default: {
        type: 'bool',
        computed: true,
        useStateForUnknown: true,
        description: 'Whether this is one of the organization\'s default roles (which cannot be deleted).',
      },
      realm: resourceRealmAttribute,
    },
  },

  validate(config, diags) {
    const org = knownString(config['organization_id']);
    if (org !== undefined && (org.trim() === '' || org.includes('/'))) {
      diags.error('Invalid organization_id', `\`organization_id\` ${quote(org)} must be an organization id: not empty, without "/".`, ['organization_id']);
    }
    const name = knownString(config['name']);
    const problem = name === undefined ? undefined : declaredRoleNameProblem(name);
    if (problem) diags.error('Invalid role name', `\`name\` ${quote(name!)} ${problem}.`, ['name']);
    validateRealm(config['realm'], diags);
  },

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    const org = knownString(req.config['organization_id']);
    const name = knownString(req.config['name']);
    if (org !== undefined && name !== undefined) plan.plannedState['id'] = organizationRoleId(org, name);
    if (name !== undefined) plan.plannedState['default'] = isDefaultRole(name);
    // A new role without a configured description has none: known at plan time.
    if (req.priorState === null && name !== undefined && !isDefaultRole(name) && req.config['description'] === null) {
      plan.plannedState['description'] = null;
    }
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const signal = signalOf(req);
    const wanted = configuredDescription(req.config);
    const target = describe(key);
    const env = reportingFor(ctx, key.realm);
    try {
      if (isDefaultRole(key.name)) {
        // Adopted: it exists with every organization.
        const role = await readRole(ctx, key, signal);
        if (!role) {
          reportOrganizationMissing(key, diags);
          return null;
        }
        return stateOf(key, await settleDescription(ctx, key, role, wanted, signal));
      }
      try {
        await ctx.client.createRole(key.organizationId, { name: key.name, description: wanted ?? null }, callOptions(key.realm, signal));
      } catch (error) {
        if (error instanceof ConflictError) {
          diags.error('Role already exists', roleExistsAdvice(key), ['name']);
          return null;
        }
        if (isObjectNotFound(error)) {
          reportOrganizationMissing(key, diags);
          return null;
        }
        // The answer was lost: the service knows whether the role is there now (this create made it).
        if (!outcomeUnknown(error)) throw error;
        const role = await readRole(ctx, key, signal).catch(() => undefined);
        if (!role) throw error;
        ctx.logger.info('a role create got no answer; the role is there, so it was created', { realm: key.realm, organizationId: key.organizationId });
        return stateOf(key, await settleDescription(ctx, key, role, wanted, signal));
      }
      const created = await readRole(ctx, key, signal);
      if (!created) throw new Error(`the service answered 201 for ${target} but does not have it`);
      return stateOf(key, created);
    } catch (error) {
      reportError(diags, error, { action: 'create organization role', target, permission: 'manage-organizations' }, env);
      return null;
    }
  },

  async read(ctx, req, diags) {
    const key = keyOf(ctx, req.state);
    let role: Role | undefined;
    try {
      role = await readRole(ctx, key, signalOf(req));
    } catch (error) {
      reportError(diags, error, { action: 'read organization role', target: describe(key), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return req.state;
    }
    if (!role) {
      diags.warning(
        'Role removed outside Terraform',
        `The ${describe(key)} no longer exists (or its organization was deleted). It is removed from the state; the next plan creates it again.`,
      );
      return null;
    }
    return stateOf(key, role);
  },

  async update(ctx, req, diags) {
    const key = keyOf(ctx, req.priorState);
    const signal = signalOf(req);
    try {
      const role = await readRole(ctx, key, signal);
      if (!role) {
        diags.error('Role not found', `Cannot update ${describe(key)}: it no longer exists. Run \`terraform apply\` again to create it.`, ['name']);
        return null;
      }
      return stateOf(key, await settleDescription(ctx, key, role, configuredDescription(req.config), signal));
    } catch (error) {
      reportError(diags, error, { action: 'update organization role', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
      return req.priorState;
    }
  },

  async delete(ctx, req, diags) {
    const key = keyOf(ctx, req.priorState);
    // Default roles cannot be deleted: destroying their resource only stops managing them.
    if (isDefaultRole(key.name)) return;
    try {
      await ctx.client.deleteRole(key.organizationId, key.name, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return; // gone already: the goal of delete
      // The answer was lost: the role may be gone; the service knows.
      if (outcomeUnknown(error) && (await readRole(ctx, key, signalOf(req)).catch(() => 'unknown' as const)) === undefined) return;
      reportError(diags, error, { action: 'delete organization role', target: describe(key), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, ORGANIZATION_ROLE_IMPORT_ID, diags);
    if (!parsed) return null;
    const [organizationId, name] = parsed.ids as [string, string];
    return {
      id: organizationRoleId(organizationId, name),
      organization_id: organizationId,
      name,
      description: null,
      role_id: null,
      default: isDefaultRole(name),
      realm: parsed.realm ?? ctx.realm,
    };
  },
};
