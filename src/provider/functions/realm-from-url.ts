/**
 * `provider::orgadmin::realm_from_url(url)`: the realm a service address names, by the very rule
 * the provider uses when its `realm` is not set (`realmOfBaseUrl` in ../settings.ts): the first
 * DNS label of the host. Lets a configuration derive the realm of a `base_url` it holds, e.g. to
 * give resources of another realm their `realm`.
 */
import type { ProviderFunction } from '../../tfplugin/framework/function';
import { realmOfBaseUrl } from '../settings';

/** The function's name. */
export const REALM_FROM_URL_FUNCTION = 'realm_from_url';

/** The `realm_from_url` function. */
export const realmFromUrlFunction: ProviderFunction = {
  name: REALM_FROM_URL_FUNCTION,
  summary: 'The realm a service address names',
  description:
    'Returns the realm that a service address names, by the rule the provider uses when its `realm` is not set: the first ' +
    'DNS label of the host (`https://acme.example.com` → `acme`). An address that is not an absolute `http` or `https` URL, ' +
    'or whose host is an IP address or a single label (`localhost`), names no realm: the call fails on the argument.',
  parameters: [{ name: 'url', type: 'string', description: 'The service\'s base address, e.g. `https://acme.example.com`.' }],
  returnType: 'string',
  run([url], errors) {
    const derived = realmOfBaseUrl(String(url));
    if ('realm' in derived) return derived.realm;
    errors.argument(0, `the realm cannot be derived from ${derived.problem}`);
    return null;
  },
};
