/**
 * `orgadmin_organization_roles` data source: every role of one organization (default roles
 * included), ordered by name, in one request.
 */
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import type { AttributeType, DataSource } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { isDefaultRole } from '../../api/roles';
import { knownString } from '../values';
import { reportOrganizationReadError } from './organization-read';

/** The data source's type name. */
export const ORGANIZATION_ROLES_DATA_SOURCE_TYPE = 'orgadmin_organization_roles';

/** The type of one element of `roles`. */
const ROLE_OBJECT: AttributeType = ['object', { id: 'string', name: 'string', description: 'string', default: 'bool' }];

/** The `orgadmin_organization_roles` data source. */
export const organizationRolesDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_ROLES_DATA_SOURCE_TYPE,
  schema: {
    description: 'Lists every role of one organization, its default roles included, ordered by name.',
    attributes: {
      organization_id: { type: 'string', required: true, description: 'The organization\'s id.' },
      realm: dataSourceRealmAttribute,
      id: { type: 'string', computed: true, description: 'The organization\'s id (the same as `organization_id`).' },
      names: { type: ['list', 'string'], computed: true, description: 'The roles\' names, ordered by name.' },
      roles: {
        type: ['list', ROLE_OBJECT],
        computed: true,
        description:
          'The roles, ordered by name: each with `id` (the service\'s id), `name`, `description` (null when none) and `default` ' +
          '(whether it is one of the default roles every organization has).',
      },
    },
  },

  validate(config, diags) {
    if (config['organization_id'] === '') diags.error('Invalid organization_id', '`organization_id` must not be empty.', ['organization_id']);
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const organizationId = knownString(req.config['organization_id']) ?? '';
    try {
      const roles = await ctx.client.listRoles(organizationId, { realm, ...(req.signal ? { signal: req.signal } : {}) });
      return {
        organization_id: organizationId,
        realm,
        id: organizationId,
        names: roles.map((role) => role.name),
        roles: roles.map((role) => ({ id: role.id, name: role.name, description: role.description, default: isDefaultRole(role.name) })),
      };
    } catch (error) {
      reportOrganizationReadError(ctx, error, { action: 'list organization roles', organizationId, realm }, diags);
      return null;
    }
  },
};
