/**
 * `orgadmin_organization_members` data source: every member of one organization (every page),
 * without the organization's default admin user.
 */
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import type { AttributeType, DataSource } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { listManagedMembers } from '../resources/organization-members';
import { knownString } from '../values';
import { reportOrganizationReadError } from './organization-read';

/** The data source's type name. */
export const ORGANIZATION_MEMBERS_DATA_SOURCE_TYPE = 'orgadmin_organization_members';

/** The type of one element of `members`. */
const MEMBER_OBJECT: AttributeType = [
  'object',
  { id: 'string', username: 'string', email: 'string', first_name: 'string', last_name: 'string' },
];

/** The `orgadmin_organization_members` data source. */
export const organizationMembersDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_MEMBERS_DATA_SOURCE_TYPE,
  schema: {
    description: 'Lists every member of one organization (all pages), leaving out admin accounts such as the organization\'s default admin user.',
    attributes: {
      organization_id: { type: 'string', required: true, description: 'The organization\'s id.' },
      realm: dataSourceRealmAttribute,
      id: { type: 'string', computed: true, description: 'The organization\'s id (the same as `organization_id`).' },
      user_ids: {
        type: ['list', 'string'],
        computed: true,
        description: 'The members\' user ids, in the order they became members.',
      },
      members: {
        type: ['list', MEMBER_OBJECT],
        computed: true,
        description:
          'The members, in the order they became members: each with `id`, `username`, `email`, `first_name` and `last_name` (null when unknown).',
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
      const members = await listManagedMembers(ctx, organizationId, realm);
      return {
        organization_id: organizationId,
        realm,
        id: organizationId,
        user_ids: members.map((member) => member.id),
        members: members.map((member) => ({
          id: member.id,
          username: member.username,
          email: member.email ?? null,
          first_name: member.firstName ?? null,
          last_name: member.lastName ?? null,
        })),
      };
    } catch (error) {
      reportOrganizationReadError(ctx, error, { action: 'list organization members', organizationId, realm }, diags);
      return null;
    }
  },
};
