/**
 * `orgadmin_portal_link` ephemeral resource: a link to an organization's admin portal, acting for
 * one of its members. Whoever holds the link gets in until it expires, so it is ephemeral: Terraform
 * opens it in the run that uses it (to mail it from a provisioner, to hand it to another tool's
 * write-only attribute) and never writes it to a plan or state file. The service cannot revoke a
 * link; it expires on its own (by default after a day).
 */
import type { OrgAdminProviderContext } from '../context';
import { callOptions, realmFor } from '../context';
import { reportError, reportingFor } from '../diagnostics';
import type { EphemeralResource } from '../../tfplugin/framework/ephemeral';
import { dataSourceRealmAttribute, validateRealm } from '../realm';
import { knownString, quote } from '../values';

/** The ephemeral resource's type name. */
export const PORTAL_LINK_EPHEMERAL_TYPE = 'orgadmin_portal_link';

/** The `orgadmin_portal_link` ephemeral resource. */
export const portalLinkEphemeralResource: EphemeralResource<OrgAdminProviderContext> = {
  typeName: PORTAL_LINK_EPHEMERAL_TYPE,
  schema: {
    description:
      'A link to an organization\'s admin portal that signs its holder in as one of the organization\'s members (by default ' +
      'its admin user), for as long as the link lives (a day unless the service is configured otherwise). The link grants ' +
      'access, so it is ephemeral: Terraform opens it during the plan or apply that uses it and never stores it in a plan or ' +
      'state file. Use it where Terraform allows ephemeral values: provisioners, write-only attributes, other ephemeral ' +
      'resources, ephemeral outputs and variables. Needs the `manage-organizations` permission; Terraform 1.10 or later.',
    attributes: {
      organization_id: { type: 'string', required: true, description: 'The organization whose portal the link opens.' },
      user_id: {
        type: 'string',
        optional: true,
        computed: true,
        description: 'The member the link signs in as; defaults to the organization\'s admin user `org-admin-<id>`. Must be a member.',
      },
      base_uri: {
        type: 'string',
        optional: true,
        description: 'The page the portal sends the user back to (absolute `http` or `https` URL); without it, `redirect` is the link itself.',
      },
      realm: dataSourceRealmAttribute,
      link: { type: 'string', computed: true, sensitive: true, description: 'The portal link. Whoever holds it is signed in.' },
      redirect: {
        type: 'string',
        computed: true,
        sensitive: true,
        description: 'Where to send the user: `base_uri` when set, otherwise the link itself.',
      },
    },
  },

  validate(config, diags) {
    validateRealm(config['realm'], diags);
    for (const name of ['organization_id', 'user_id'] as const) {
      if (config[name] === '') diags.error(`Empty ${name}`, `\`${name}\` is an empty string; give an id${name === 'user_id' ? ' or leave it out' : ''}.`, [name]);
    }
    const baseUri = knownString(config['base_uri']);
    if (baseUri !== undefined && !/^https?:\/\/\S+$/i.test(baseUri)) {
      diags.error('Invalid base_uri', `\`base_uri\` ${quote(baseUri)} is not an absolute http or https URL.`, ['base_uri']);
    }
  },

  async open(ctx, req, diags) {
    const realm = realmFor(ctx, req.config['realm']);
    const organizationId = knownString(req.config['organization_id'])!;
    const userId = knownString(req.config['user_id']);
    const baseUri = knownString(req.config['base_uri']);
    try {
      const answer = await ctx.client.createPortalLink(
        organizationId,
        { ...(userId !== undefined ? { userId } : {}), ...(baseUri !== undefined ? { baseUri } : {}) },
        callOptions(realm, req.signal),
      );
      return { result: { ...req.config, realm, user_id: answer.user, link: answer.link, redirect: answer.redirect } };
    } catch (error) {
      const target = `of organization ${quote(organizationId)}${userId !== undefined ? ` for user ${quote(userId)}` : ''} in realm ${quote(realm)}`;
      reportError(diags, error, { action: 'create portal link', target, permission: 'manage-organizations' }, reportingFor(ctx, realm));
      return null;
    }
  },
};
