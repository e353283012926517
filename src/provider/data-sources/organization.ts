/**
 * `orgadmin_organization` data source: one organization, by `id` or by exact `name`. When no
 * organization has the name, the error lists the visible names that come close (sharing a
 * substring, or a few typing mistakes away), so a typo is found at once.
 */
import type { Organization } from '../../api';
import type { OrgAdminProviderContext } from '../context';
import { realmFor } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import type { DataSource, Diagnostics, ObjectValue, Value } from '../../tfplugin/framework/types';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { reportMissingLookup, validateLookup, type LookupChoice } from './lookup';
import { knownString, quote } from '../values';

/** The data source's type name. */
export const ORGANIZATION_DATA_SOURCE_TYPE = 'orgadmin_organization';

/** The data source chooses the organization by `id` or by `name`. */
const LOOKUP: LookupChoice = { first: 'id', second: 'name', what: 'the organization' };

/** How many close names a not-found error lists at most. */
const MAX_SUGGESTIONS = 10;

/** The Levenshtein distance between two strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The names among `candidates` close to `wanted`, closest first: equal ignoring case, containing
 * or contained in it (ignoring case), or at most a few edits away (a quarter of the length, at
 * least 2).
 */
export function closeNames(wanted: string, candidates: readonly string[], limit = MAX_SUGGESTIONS): string[] {
  const target = wanted.toLowerCase();
  const allowed = Math.max(2, Math.floor(target.length / 4));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const lower = name.toLowerCase();
    const distance = editDistance(target, lower);
    if (lower === target) scored.push({ name, score: 0 });
    else if (target.length > 0 && (lower.includes(target) || (lower.length >= 3 && target.includes(lower)))) scored.push({ name, score: 1 + distance / 1000 });
    else if (distance <= allowed) scored.push({ name, score: 1 + distance });
  }
  scored.sort((x, y) => x.score - y.score || x.name.localeCompare(y.name));
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** The computed attributes of an organization, in the data sources' attribute names. */
export function organizationAttributes(org: Organization): ObjectValue {
  const attributes: { [key: string]: Value } = {};
  for (const [key, values] of Object.entries(org.attributes)) attributes[key] = [...values];
  return {
    id: org.id,
    name: org.name,
    display_name: org.displayName ?? null,
    url: org.url ?? null,
    domains: [...org.domains],
    attributes,
  };
}

async function reportNameNotFound(
  ctx: OrgAdminProviderContext,
  realm: string,
  name: string,
  diags: Diagnostics,
): Promise<void> {
  let visible: string[] | undefined;
  try {
    visible = (await ctx.client.listAllOrganizations({}, { realm })).map((org) => org.name);
  } catch (error) {
    ctx.logger.warn('could not list organizations for suggestions', { realm, error: String(error) });
  }
  let hint: string;
  if (visible === undefined) hint = 'The visible organizations could not be listed to suggest a name.';
  else if (visible.length === 0) hint = `Realm ${quote(realm)} has no organizations visible to these credentials.`;
  else {
    const close = closeNames(name, visible);
    hint =
      close.length > 0
        ? `Close names among the ${visible.length} visible organization${visible.length === 1 ? '' : 's'}: ${close.map(quote).join(', ')}.`
        : `No visible name comes close; there ${visible.length === 1 ? 'is 1 organization' : `are ${visible.length} organizations`} in the realm` +
          (visible.length <= 20 ? `: ${visible.map(quote).join(', ')}.` : '.');
  }
  diags.error(
    'Organization not found',
    `No organization is named exactly ${quote(name)} in realm ${quote(realm)} (names are case-sensitive). ${hint}`,
    ['name'],
  );
}

/** The `orgadmin_organization` data source. */
export const organizationDataSource: DataSource<OrgAdminProviderContext> = {
  typeName: ORGANIZATION_DATA_SOURCE_TYPE,
  schema: {
    description: 'Looks up one organization by `id` or by exact `name` (set exactly one of the two).',
    attributes: {
      id: {
        type: 'string',
        optional: true,
        computed: true,
        description: 'The organization\'s id. Set it, or `name`, to choose the organization.',
      },
      name: {
        type: 'string',
        optional: true,
        computed: true,
        description: 'The organization\'s exact name (case-sensitive). Set it, or `id`, to choose the organization.',
      },
      realm: dataSourceRealmAttribute,
      display_name: { type: 'string', computed: true, description: 'The organization\'s display name (null when none).' },
      url: { type: 'string', computed: true, description: 'The organization\'s web address (null when none).' },
      domains: { type: ['set', 'string'], computed: true, description: 'The organization\'s DNS domains, lowercase.' },
      attributes: {
        type: ['map', ['list', 'string']],
        computed: true,
        description: 'The organization\'s custom attributes: each name holds a list of strings.',
      },
    },
  },

  validate(config, diags) {
    validateLookup(config, LOOKUP, diags);
    validateRealm(config['realm'], diags);
  },

  async read(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const id = knownString(req.config['id']);
    const name = knownString(req.config['name']);
    const env = reportingFor(ctx, realm);
    let org: Organization | undefined;
    if (id !== undefined) {
      try {
        org = await ctx.client.getOrganization(id, { realm });
      } catch (error) {
        if (isObjectNotFound(error)) {
          diags.error('Organization not found', `There is no organization with id ${quote(id)} in realm ${quote(realm)}. Check \`id\` (and \`realm\`).`, ['id']);
        } else {
          reportError(diags, error, { action: 'read organization', target: `${quote(id)} in realm ${quote(realm)}`, permission: 'view-organizations', path: ['id'] }, env);
        }
        return null;
      }
    } else if (name !== undefined) {
      try {
        const matches = await ctx.client.listAllOrganizations({ search: name }, { realm });
        org = matches.find((candidate) => candidate.name === name);
      } catch (error) {
        reportError(diags, error, { action: 'look up organization', target: `named ${quote(name)} in realm ${quote(realm)}`, permission: 'view-organizations', path: ['name'] }, env);
        return null;
      }
      if (org === undefined) {
        await reportNameNotFound(ctx, realm, name, diags);
        return null;
      }
    } else {
      reportMissingLookup(LOOKUP, diags);
      return null;
    }
    return { ...organizationAttributes(org), realm: org.realm || realm };
  },
};
