/**
 * `orgadmin_organization_identity_provider_mapper`: one mapper of an organization's identity
 * provider (the vendor's `…/idps/{alias}/mappers`), in Keycloak's shape: a type and its `config`
 * strings. The types the service runs: `oidc-user-attribute-idp-mapper` (a claim into a user
 * field), `oidc-username-idp-mapper` (the username of new users) and
 * `oidc-hardcoded-org-role-idp-mapper` (organization roles granted at sign-in, `org_role`).
 */
import { SUPPORTED_MAPPER_TYPES } from '../../api/identity-provider-settings';
import type { IdentityProviderMapperRepresentation } from '../../api';
import { ConflictError } from '../../client/errors';
import { callOptions, signalOf, type OrgAdminProviderContext } from '../context';
import { isObjectNotFound, reportError, reportingFor } from '../diagnostics';
import { importCommands } from '../import-advice';
import { parseImportId, type ImportIdForm } from '../import-id';
import { outcomeUnknown } from '../outcome';
import { planRealm, resourceRealmAttribute, validateRealm } from '../realm';
import type { Diagnostics, ObjectValue, Resource } from '../../tfplugin/framework/types';
import { knownString, quote } from '../values';

/** The resource's type name. */
export const IDENTITY_PROVIDER_MAPPER_RESOURCE_TYPE = 'orgadmin_organization_identity_provider_mapper';

/** How a mapper is imported: `ORG/ALIAS/MAPPER_ID` or `REALM/ORG/ALIAS/MAPPER_ID`. */
export const IDENTITY_PROVIDER_MAPPER_IMPORT_ID: ImportIdForm = {
  typeName: IDENTITY_PROVIDER_MAPPER_RESOURCE_TYPE,
  segments: ['ORG', 'ALIAS', 'MAPPER_ID'],
  example: '6f1d3c0e-5b0a-4c1e-9d1f-2a7b8c9d0e1f/globex-okta/3c2b1a00-1111-4222-8333-444455556666',
};

interface MapperKey {
  organizationId: string;
  alias: string;
  realm: string;
}

function keyOf(ctx: OrgAdminProviderContext, state: ObjectValue): MapperKey {
  return { organizationId: knownString(state['organization_id']) ?? '', alias: knownString(state['identity_provider_alias']) ?? '', realm: knownString(state['realm']) ?? ctx.realm };
}

const describe = (key: MapperKey, name: string): string => `mapper ${quote(name)} of identity provider ${quote(key.alias)} of organization ${quote(key.organizationId)} (realm ${quote(key.realm)})`;

/** The request body of a mapper. */
interface MapperInput {
  name: string;
  identityProviderMapper: string;
  config: Record<string, string>;
}

/** The request body of the planned state. */
function inputOf(plan: ObjectValue): MapperInput {
  const config = (plan['config'] ?? {}) as Record<string, string>;
  return { name: knownString(plan['name']) ?? '', identityProviderMapper: knownString(plan['mapper_type']) ?? '', config: { ...config } };
}

function stateOf(key: MapperKey, found: IdentityProviderMapperRepresentation): ObjectValue {
  return {
    id: found.id,
    organization_id: key.organizationId,
    identity_provider_alias: key.alias,
    realm: key.realm,
    name: found.name,
    mapper_type: found.identityProviderMapper,
    config: { ...found.config },
  };
}

/** The provider's mapper named `name`, if any (names are unique among one provider's mappers). */
async function mapperNamed(ctx: OrgAdminProviderContext, key: MapperKey, name: string, signal: AbortSignal | undefined): Promise<IdentityProviderMapperRepresentation | undefined> {
  const mappers = await ctx.client.listIdentityProviderMappers(key.organizationId, key.alias, callOptions(key.realm, signal));
  return mappers.find((mapper) => mapper.name === name);
}

/** True when `found` has the type and exactly the config that `input` sent. */
function hasSettings(found: IdentityProviderMapperRepresentation, input: MapperInput): boolean {
  const keys = Object.keys(input.config);
  return (
    found.identityProviderMapper === input.identityProviderMapper &&
    Object.keys(found.config).length === keys.length &&
    keys.every((name) => found.config[name] === input.config[name])
  );
}

/** The error of a create whose name the provider's mappers already have, with the import advice when its id can be read. */
async function reportNameTaken(ctx: OrgAdminProviderContext, key: MapperKey, name: string, diags: Diagnostics, signal: AbortSignal | undefined): Promise<void> {
  const existing = await mapperNamed(ctx, key, name, signal).catch(() => undefined);
  const importIt = existing
    ? `To manage it with this resource, import it:\n\n${importCommands(IDENTITY_PROVIDER_MAPPER_RESOURCE_TYPE, `${key.organizationId}/${key.alias}/${existing.id}`)}\n\n`
    : 'To manage it with this resource, import it by `ORG/ALIAS/MAPPER_ID` (the mapper\'s id is in `GET …/idps/{alias}/mappers`). ';
  diags.error(
    'Mapper name already taken',
    `The ${describe(key, name)} already exists, and this configuration does not manage it. orgadmin never takes over a mapper it did not create.\n\n${importIt}Otherwise choose another \`name\`.`,
    ['name'],
  );
}

/** The `orgadmin_organization_identity_provider_mapper` resource. */
export const identityProviderMapperResource: Resource<OrgAdminProviderContext> = {
  typeName: IDENTITY_PROVIDER_MAPPER_RESOURCE_TYPE,
  schema: {
    version: 0,
    description:
      'One mapper of an organization\'s identity provider, in Keycloak\'s shape (a type and its `config`). Types: ' +
      '`oidc-user-attribute-idp-mapper` (`claim`, `user.attribute`: email, firstName or lastName), `oidc-username-idp-mapper` ' +
      '(`template`, e.g. `${CLAIM.email}`), and `oidc-hardcoded-org-role-idp-mapper` (`org_role`: the organization roles to grant, ' +
      'several separated by `##`; `syncMode` `IMPORT` grants them on the first sign-in only, `FORCE` on every sign-in).\n\n' +
      'Import by `ORG/ALIAS/MAPPER_ID` or `REALM/ORG/ALIAS/MAPPER_ID`.',
    attributes: {
      id: { type: 'string', computed: true, useStateForUnknown: true, description: 'The mapper\'s id, given by the service.' },
      organization_id: { type: 'string', required: true, requiresReplace: true, description: 'The organization that owns the identity provider.' },
      identity_provider_alias: { type: 'string', required: true, requiresReplace: true, description: 'The identity provider\'s alias.' },
      realm: resourceRealmAttribute,
      name: { type: 'string', required: true, description: 'The mapper\'s name, unique among the provider\'s mappers.' },
      mapper_type: { type: 'string', required: true, requiresReplace: true, description: `The mapper type: ${SUPPORTED_MAPPER_TYPES.map((t) => `\`${t}\``).join(', ')}.` },
      config: { type: ['map', 'string'], required: true, description: 'The mapper\'s settings (Keycloak\'s names), e.g. `{ org_role = "admin", syncMode = "IMPORT" }`.' },
    },
  },

  validate(config, diags) {
    const type = knownString(config['mapper_type']);
    if (type !== undefined && !SUPPORTED_MAPPER_TYPES.includes(type)) {
      diags.error('Unsupported mapper type', `\`mapper_type\` ${quote(type)} is not one the service runs; use ${SUPPORTED_MAPPER_TYPES.join(', ')}.`, ['mapper_type']);
    }
    validateRealm(config['realm'], diags);
  },

  modifyPlan(ctx, req, plan) {
    planRealm(ctx, req.config, req.priorState, plan);
    return Promise.resolve();
  },

  async create(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const signal = signalOf(req);
    const options = callOptions(key.realm, signal);
    const input = inputOf(req.plannedState);
    try {
      let id: string;
      try {
        id = await ctx.client.createIdentityProviderMapper(key.organizationId, key.alias, input, options);
      } catch (error) {
        if (error instanceof ConflictError) {
          await reportNameTaken(ctx, key, input.name, diags, signal);
          return null;
        }
        // The answer was lost: a mapper of this name with these settings is this create's (names are unique per provider).
        if (!outcomeUnknown(error)) throw error;
        const found = await mapperNamed(ctx, key, input.name, signal).catch(() => undefined);
        if (!found || !hasSettings(found, input)) throw error;
        ctx.logger.info('a mapper create got no answer; the mapper is there with these settings, so it was created', { realm: key.realm, organizationId: key.organizationId });
        return stateOf(key, found);
      }
      return stateOf(key, await ctx.client.getIdentityProviderMapper(key.organizationId, key.alias, id, options));
    } catch (error) {
      reportError(diags, error, { action: 'create identity provider mapper', target: describe(key, input.name), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
  },

  async read(ctx, req, diags) {
    const key = keyOf(ctx, req.state);
    const id = knownString(req.state['id'])!;
    try {
      return stateOf(key, await ctx.client.getIdentityProviderMapper(key.organizationId, key.alias, id, callOptions(key.realm, signalOf(req))));
    } catch (error) {
      if (isObjectNotFound(error)) {
        diags.warning('Mapper removed outside Terraform', `${describe(key, knownString(req.state['name']) ?? id)} no longer exists. It is removed from the state; the next apply creates it again.`);
        return null;
      }
      reportError(diags, error, { action: 'read identity provider mapper', target: describe(key, knownString(req.state['name']) ?? id), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return req.state;
    }
  },

  async update(ctx, req, diags) {
    const key = keyOf(ctx, req.plannedState);
    const id = knownString(req.priorState['id'])!;
    const options = callOptions(key.realm, signalOf(req));
    const input = inputOf(req.plannedState);
    try {
      await ctx.client.updateIdentityProviderMapper(key.organizationId, key.alias, id, input, options);
      return stateOf(key, await ctx.client.getIdentityProviderMapper(key.organizationId, key.alias, id, options));
    } catch (error) {
      reportError(diags, error, { action: 'update identity provider mapper', target: describe(key, input.name), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
  },

  async delete(ctx, req, diags) {
    const key = keyOf(ctx, req.priorState);
    const id = knownString(req.priorState['id'])!;
    try {
      await ctx.client.deleteIdentityProviderMapper(key.organizationId, key.alias, id, callOptions(key.realm, signalOf(req)));
    } catch (error) {
      if (isObjectNotFound(error)) return;
      reportError(diags, error, { action: 'delete identity provider mapper', target: describe(key, knownString(req.priorState['name']) ?? id), permission: 'manage-organizations' }, reportingFor(ctx, key.realm));
    }
  },

  async importState(ctx, req, diags) {
    const parsed = parseImportId(req.id, IDENTITY_PROVIDER_MAPPER_IMPORT_ID, diags);
    if (!parsed) return null;
    const key: MapperKey = { organizationId: parsed.ids[0]!, alias: parsed.ids[1]!, realm: parsed.realm ?? ctx.realm };
    const id = parsed.ids[2]!;
    try {
      return stateOf(key, await ctx.client.getIdentityProviderMapper(key.organizationId, key.alias, id, callOptions(key.realm, signalOf(req))));
    } catch (error) {
      if (isObjectNotFound(error)) diags.error('Cannot import: mapper not found', `There is no ${describe(key, id)}.`);
      else reportError(diags, error, { action: 'read identity provider mapper', target: describe(key, id), permission: 'view-organizations' }, reportingFor(ctx, key.realm));
      return null;
    }
  },
};
