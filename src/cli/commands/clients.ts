/**
 * `orgadmin clients create|list|update|delete`: the OpenID Connect clients of a realm that may sign
 * users in with the authorization code flow and PKCE: public ones (single-page and native apps,
 * command-line tools) and, with `--confidential`, server-side ones that also present a secret.
 * Their redirect URIs are compared exactly. The dashboard is a built-in client and needs no
 * registration.
 */
import { defineCommand, defineGroup } from '../command';
import { parseSwitch } from './realms';
import { COMMON_FLAGS, resolveDataFile, withAdmin } from '../context';
import { EXIT } from '../errors';
import { printJson, printTable } from '../output';

/** `--organizations-claim on|off` of create and update. */
const ORGANIZATIONS_CLAIM_FLAG = {
  type: 'string',
  valueName: 'on|off',
  description: "Whether the client's user tokens carry the organizations claim (the user's organizations and roles there), also when the realm does not ask for it.",
} as const;

const create = defineCommand(
  {
    command: 'clients create',
    summary: 'Registers a public client (authorization code flow with PKCE) with its exact redirect URIs.',
    positionals: [{ name: 'CLIENT_ID', required: true, description: 'Client id, unique in the realm (letters, digits, ".", "_", "-").' }],
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the client.' },
      'redirect-uri': {
        type: 'string',
        valueName: 'URI[,URI...]',
        required: true,
        description: 'Comma-separated redirect URIs, compared exactly; https, or http for localhost and loopback addresses.',
      },
      name: { type: 'string', valueName: 'TEXT', description: 'Name shown on the login page (default: the client id).' },
      confidential: {
        type: 'boolean',
        description: 'Give the client a secret (printed once) that it must present at the token endpoint, besides PKCE: for server-side apps, such as another service brokering sign-ins to this realm.',
      },
      'organizations-claim': ORGANIZATIONS_CLAIM_FLAG,
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const claim = flags['organizations-claim'];
    const organizationsClaim = claim === undefined ? false : parseSwitch('organizations-claim', claim);
    const dataFile = resolveDataFile(flags.data, io);
    const redirectUris = flags['redirect-uri'].split(',').filter((uri) => uri !== '');
    const client = await withAdmin(dataFile, (admin) =>
      admin.createClient(flags.realm, { clientId: positionals[0]!, name: flags.name, redirectUris, confidential: flags.confidential === true, organizationsClaim }),
    );
    if (flags.json) printJson(io, client);
    else {
      io.stdout(`Registered ${client.confidential ? 'confidential' : 'public'} client ${client.clientId} in realm ${flags.realm} with redirect URIs ${client.redirectUris.join(', ')}.\n`);
      if (client.clientSecret !== undefined) io.stdout(`Client secret (shown only now): ${client.clientSecret}\n`);
    }
    return EXIT.ok;
  },
);

const list = defineCommand(
  {
    command: 'clients list',
    summary: 'Lists the registered public clients of a realm.',
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm whose clients to list.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags }, io) => {
    const dataFile = resolveDataFile(flags.data, io);
    const clients = await withAdmin(dataFile, (admin) => admin.listClients(flags.realm));
    if (flags.json) printJson(io, clients);
    else {
      printTable(
        io,
        ['CLIENT ID', 'NAME', 'TYPE', 'REDIRECT URIS'],
        clients.map((c) => [c.clientId, c.name, c.confidential ? 'confidential' : 'public', c.redirectUris.join(' ')]),
        `No registered clients in realm ${flags.realm}.`,
      );
    }
    return EXIT.ok;
  },
);

const update = defineCommand(
  {
    command: 'clients update',
    summary: "Changes a registered client's settings (the organizations claim of its tokens).",
    positionals: [{ name: 'CLIENT_ID', required: true, description: 'Client id.' }],
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the client.' },
      'organizations-claim': { ...ORGANIZATIONS_CLAIM_FLAG, required: true },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const organizationsClaim = parseSwitch('organizations-claim', flags['organizations-claim']);
    const dataFile = resolveDataFile(flags.data, io);
    const client = await withAdmin(dataFile, (admin) => admin.setClientOrganizationsClaim(flags.realm, positionals[0]!, organizationsClaim));
    if (flags.json) printJson(io, client);
    else io.stdout(`Updated client ${client.clientId} of realm ${flags.realm}: organizations claim ${client.organizationsClaim ? 'on' : 'off'}.\n`);
    return EXIT.ok;
  },
);

const remove = defineCommand(
  {
    command: 'clients delete',
    summary: 'Removes a registered client: it can no longer start a login or exchange a code.',
    positionals: [{ name: 'CLIENT_ID', required: true, description: 'Client id.' }],
    flags: {
      realm: { type: 'string', valueName: 'NAME', required: true, description: 'Realm of the client.' },
      ...COMMON_FLAGS,
    },
  },
  async ({ flags, positionals }, io) => {
    const clientId = positionals[0]!;
    const dataFile = resolveDataFile(flags.data, io);
    await withAdmin(dataFile, (admin) => admin.deleteClient(flags.realm, clientId));
    if (flags.json) printJson(io, { clientId, deleted: true });
    else io.stdout(`Deleted client ${clientId} of realm ${flags.realm}.\n`);
    return EXIT.ok;
  },
);

/** `orgadmin clients ...` */
export const runClientsCommand = defineGroup('clients', 'Manage the public OpenID Connect clients of a realm (browser login).', {
  create,
  list,
  update,
  delete: remove,
});
