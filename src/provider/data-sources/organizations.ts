/**
 * `orgadmin_organizations` data source: every organization matching a search and attribute
 * filter, read to the last page (the service returns at most 100 per request).
 */
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { reportError, reportingFor } from '../diagnostics';
import { queryTermsProblem } from '../../api/validation';
import type { AttributeType, DataSource } from '../../tfplugin/framework/types';
import { isUnknown } from '../../tfplugin/protocol/unknown';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { knownString, knownStringMap, quote } from '../values';
import { organizationAttributes } from './organization';

/** The data source's type name. */
export const ORGANIZATIONS_DATA_SOURCE_TYPE = 'orgadmin_organizations';

/** The type of one element of `organizations`. */
const ORGANIZATION_OBJECT: AttributeType = [
  'object',
  {
    id: 'string',
    name: 'string',
    display_name: 'string',
    url: 'string',
    domains: ['set', 'string'],
    attributes: ['map', ['list', 'string']],
  },
];

/** The `orgadmin_organizations` data source. */
export const organizationsDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: ORGANIZATIONS_DATA_SOURCE_TYPE,
  schema: {
    description: 'Lists the organizations of a realm, optionally filtered by a search text and by attribute values. Every page is read.',
    attributes: {
      search: {
        type: 'string',
        optional: true,
        description: 'Keeps organizations whose name or display name contains this text (case-insensitive).',
      },
      attributes: {
        type: ['map', 'string'],
        optional: true,
        description: 'Keeps organizations that have every given attribute with the given value (exact match), e.g. `{ tier = "gold" }`.',
      },
      realm: dataSourceRealmAttribute,
      organizations: {
        type: ['list', ORGANIZATION_OBJECT],
        computed: true,
        description:
          'The matching organizations, sorted by name: each with `id`, `name`, `display_name`, `url`, `domains` and `attributes`.',
      },
      ids: {
        type: ['list', 'string'],
        computed: true,
        description: 'The ids of the matching organizations, in the order of `organizations`.',
      },
    },
  },

  validate(config, diags) {
    const attributes = config['attributes'];
    if (attributes !== null && attributes !== undefined && !isUnknown(attributes) && typeof attributes === 'object' && !Array.isArray(attributes)) {
      const tooMany = queryTermsProblem(Object.keys(attributes).length);
      if (tooMany) diags.error('Too many attribute filters', `\`attributes\` ${tooMany} (the service's limit on one query).`, ['attributes']);
      for (const [key, value] of Object.entries(attributes)) {
        if (key === '') diags.error('Invalid attribute filter', 'An attribute name in `attributes` is empty.', ['attributes']);
        if (value === '') diags.error('Invalid attribute filter', `The attribute ${quote(key)} has an empty value; the filter cannot match an empty value.`, ['attributes', key]);
      }
    }
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const search = knownString(req.config['search']);
    const filter = knownStringMap(req.config['attributes']);
    const query: { search?: string; q?: Record<string, string> } = {};
    if (search !== undefined && search !== '') query.search = search;
    if (filter !== undefined && Object.keys(filter).length > 0) query.q = filter;
    try {
      const organizations = await ctx.client.listAllOrganizations(query, { realm });
      return {
        search: req.config['search'] ?? null,
        attributes: req.config['attributes'] ?? null,
        realm,
        organizations: organizations.map(organizationAttributes),
        ids: organizations.map((org) => org.id),
      };
    } catch (error) {
      reportError(diags, error, { action: 'list organizations', target: `in realm ${quote(realm)}`, permission: 'view-organizations' }, reportingFor(ctx, realm));
      return null;
    }
  },
};
