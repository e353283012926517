/**
 * `provider::orgadmin::parse_import_id(id, resource_type...)`: an import id of an orgadmin resource
 * into its parts, by the very forms the resources import with (their `*_IMPORT_ID` and
 * `parseImportId` of ../import-id.ts). Without a resource type the id must fit one reading: one
 * segment is an organization, three are `REALM/ORG/USER`; two segments are `ORG/USER` for a
 * membership but `REALM/ID` for an organization, so they need the type. A role's id
 * (`ORG_ID/ROLE_NAME`) has the shape of a membership's, so it is read as a role only when the type
 * says so: ids without a type read as before roles were importable. The same holds for an
 * identity provider's `ORG/ALIAS`; a domain verification's `ORG/DOMAIN` is told apart by the dot
 * of its domain.
 */
import type { ProviderFunction } from '../../tfplugin/framework/function';
import { DiagnosticsCollector } from '../../tfplugin/framework/diagnostics';
import type { Value } from '../../tfplugin/framework/types';
import { domainProblem } from '../../api/validation';
import { parseImportId, type ImportIdForm, type ParsedImportId } from '../import-id';
import { DOMAIN_VERIFICATION_IMPORT_ID } from '../resources/domain-verification';
import { IDENTITY_PROVIDER_IMPORT_ID } from '../resources/identity-provider';
import { IDENTITY_PROVIDER_MAPPER_IMPORT_ID } from '../resources/identity-provider-mapper';
import { MEMBERSHIP_IMPORT_ID } from '../resources/membership';
import { ORGANIZATION_IMPORT_ID } from '../resources/organization';
import { ORGANIZATION_MEMBERS_IMPORT_ID } from '../resources/organization-members';
import { ORGANIZATION_MEMBER_ROLES_IMPORT_ID } from '../resources/organization-member-roles';
import { ORGANIZATION_ROLE_IMPORT_ID } from '../resources/organization-role';
import { WEBHOOK_IMPORT_ID } from '../resources/webhook';
import { quote } from '../values';

/** The function's name. */
export const PARSE_IMPORT_ID_FUNCTION = 'parse_import_id';

/** Every importable resource's form, in the order messages list them. */
export const IMPORT_ID_FORMS: readonly ImportIdForm[] = [
  ORGANIZATION_IMPORT_ID,
  MEMBERSHIP_IMPORT_ID,
  ORGANIZATION_MEMBERS_IMPORT_ID,
  ORGANIZATION_ROLE_IMPORT_ID,
  ORGANIZATION_MEMBER_ROLES_IMPORT_ID,
  DOMAIN_VERIFICATION_IMPORT_ID,
  IDENTITY_PROVIDER_IMPORT_ID,
  IDENTITY_PROVIDER_MAPPER_IMPORT_ID,
  WEBHOOK_IMPORT_ID,
];

/** The forms an id without a resource type is read by: all but the role's, the identity provider's and the webhook's (see the file comment). */
const UNTYPED_FORMS: readonly ImportIdForm[] = IMPORT_ID_FORMS.filter(
  (form) => form !== ORGANIZATION_ROLE_IMPORT_ID && form !== IDENTITY_PROVIDER_IMPORT_ID && form !== IDENTITY_PROVIDER_MAPPER_IMPORT_ID && form !== WEBHOOK_IMPORT_ID,
);

/** Which part of the result each segment name of a form fills. */
const SEGMENT_PARTS: { readonly [segment: string]: 'organization_id' | 'user_id' | 'role_name' | 'domain' | 'alias' | 'mapper_id' | 'webhook_id' } = {
  ID: 'organization_id',
  ORG: 'organization_id',
  ORG_ID: 'organization_id',
  USER: 'user_id',
  USER_ID: 'user_id',
  ROLE_NAME: 'role_name',
  DOMAIN: 'domain',
  ALIAS: 'alias',
  MAPPER_ID: 'mapper_id',
  WEBHOOK_ID: 'webhook_id',
};

/** The result type: the parts an import id can have (null when the id has none). */
const PARTS_TYPE = ['object', { realm: 'string', organization_id: 'string', user_id: 'string', role_name: 'string', domain: 'string', alias: 'string', mapper_id: 'string', webhook_id: 'string' }] as const;

/** The parts of a parsed id of `form`. */
function parts(form: ImportIdForm, parsed: ParsedImportId): { [part: string]: Value } {
  const result: { [part: string]: Value } = { realm: parsed.realm ?? null, organization_id: null, user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null };
  form.segments.forEach((segment, i) => {
    const part = SEGMENT_PARTS[segment];
    if (part === undefined) throw new Error(`import id segment ${segment} of ${form.typeName} has no part`);
    result[part] = parsed.ids[i]!;
  });
  return result;
}

/** Parses `id` by `form`: its parts, or the resource's own error detail. */
function parseBy(form: ImportIdForm, id: string): { parts: { [part: string]: Value } } | { problem: string } {
  const diags = new DiagnosticsCollector();
  const parsed = parseImportId(id, form, diags);
  if (!parsed) return { problem: diags.all().map((d) => d.detail ?? d.summary).join('\n') };
  // A domain has a dot (user and organization ids do not), so `ORG/DOMAIN` and `ORG/USER` tell apart.
  const domainAt = form.segments.indexOf('DOMAIN');
  const domain = domainAt < 0 ? undefined : parsed.ids[domainAt]!;
  if (domain !== undefined && (!domain.includes('.') || domainProblem(domain))) return { problem: `${quote(domain)} is not a domain (like \`globex.com\`)` };
  return { parts: parts(form, parsed) };
}

/** The `parse_import_id` function. */
export const parseImportIdFunction: ProviderFunction = {
  name: PARSE_IMPORT_ID_FUNCTION,
  summary: 'The parts of an orgadmin import id',
  description:
    'Splits the import id of an orgadmin resource into `realm`, `organization_id`, `user_id`, `role_name`, `domain`, ' +
    '`alias`, `mapper_id` and `webhook_id` (null where the id has none), by the forms the resources import with: `ID` or `REALM/ID` (`orgadmin_organization`), ' +
    '`ORG/USER` or `REALM/ORG/USER` (`orgadmin_membership`), `ORG` or `REALM/ORG` (`orgadmin_organization_members`), ' +
    '`ORG_ID/ROLE_NAME` or `REALM/ORG_ID/ROLE_NAME` (`orgadmin_organization_role`), `ORG_ID/USER_ID` or `REALM/ORG_ID/USER_ID` ' +
    '(`orgadmin_organization_member_roles`), `ORG/DOMAIN` or `REALM/ORG/DOMAIN` (`orgadmin_organization_domain_verification`; ' +
    'the domain has a dot), `ORG/ALIAS` or `REALM/ORG/ALIAS` (`orgadmin_organization_identity_provider`), ' +
    '`ORG/ALIAS/MAPPER_ID` or `REALM/ORG/ALIAS/MAPPER_ID` (`orgadmin_organization_identity_provider_mapper`), `WEBHOOK_ID` or `REALM/WEBHOOK_ID` (`orgadmin_webhook`).\n\n' +
    'Give the resource type as a second argument to read the id by that resource\'s form. Without it the id must have one ' +
    'reading: one segment is an organization id, three without a dot in the last are `REALM/ORG/USER`; two segments are ' +
    'ambiguous (`ORG/USER`, `ORG/DOMAIN` or `REALM/ID`), and so are three with a dot in the last (`REALM/ORG/USER` or ' +
    '`REALM/ORG/DOMAIN`): they fail. A role\'s and an identity provider\'s ids look like a membership\'s, so they are read as ' +
    'such only with the type `orgadmin_organization_role` or `orgadmin_organization_identity_provider`; a mapper\'s id only ' +
    'with `orgadmin_organization_identity_provider_mapper`; a webhook\'s only with `orgadmin_webhook`.',
  parameters: [{ name: 'id', type: 'string', description: 'The import id, as `terraform import` takes it.' }],
  variadicParameter: {
    name: 'resource_type',
    type: 'string',
    description: `At most one: the resource the id is for (${IMPORT_ID_FORMS.map((form) => `\`${form.typeName}\``).join(', ')}).`,
  },
  returnType: PARTS_TYPE,
  run([idValue, typesValue], errors) {
    const id = String(idValue);
    const types = typesValue as string[];
    if (types.length > 1) {
      errors.argument(2, `give at most one resource type; ${types.length} were given`);
      return null;
    }
    if (types.length === 1) {
      const form = IMPORT_ID_FORMS.find((candidate) => candidate.typeName === types[0]);
      if (!form) {
        errors.argument(1, `${quote(types[0]!)} is not an importable orgadmin resource; use one of ${IMPORT_ID_FORMS.map((f) => f.typeName).join(', ')}`);
        return null;
      }
      const read = parseBy(form, id);
      if ('problem' in read) errors.argument(0, read.problem);
      return 'parts' in read ? read.parts : null;
    }
    // Every form the id fits, and what each makes of it.
    const readings = UNTYPED_FORMS.map((form) => ({ form, read: parseBy(form, id) }));
    const fitting = readings.filter((reading) => 'parts' in reading.read);
    const distinct = new Set(fitting.map((reading) => JSON.stringify((reading.read as { parts: unknown }).parts)));
    if (distinct.size === 1) return (fitting[0]!.read as { parts: { [part: string]: Value } }).parts;
    if (fitting.length === 0) {
      errors.argument(0, `${quote(id)} is no orgadmin import id: ${UNTYPED_FORMS.map((form) => `${form.typeName} takes \`${form.segments.join('/')}\` or \`REALM/${form.segments.join('/')}\``).join('; ')}`);
      return null;
    }
    errors.argument(
      0,
      `${quote(id)} reads differently for ${fitting.map((reading) => reading.form.typeName).join(' and ')}: ` +
        'give the resource type as the second argument, e.g. `parse_import_id(id, "orgadmin_membership")`',
    );
    return null;
  },
};
