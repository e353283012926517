/** `provider::orgadmin::realm_from_url`: the provider settings' realm rule, as a function. */
import { REALM_FROM_URL_FUNCTION as NAME } from '../../../src/provider/functions/realm-from-url';
import { createOrgAdminProvider } from '../../../src/provider/provider';
import { RecordingDiagnostics, ProviderHarness } from '../../../src/tfplugin/testing/harness';
import { resolveProviderSettings } from '../../../src/provider/settings';

const harness = new ProviderHarness(createOrgAdminProvider({ env: {} }));

describe('realm_from_url', () => {
  it('gives the first DNS label of the host, whatever the path or port', async () => {
    expect(await harness.callFunction(NAME, ['https://acme.example.com'])).toEqual({ result: 'acme' });
    expect(await harness.callFunction(NAME, ['http://beta.orgs.internal:8443/prefix/'])).toEqual({ result: 'beta' });
  });

  it('fails on the argument when the address names no realm, as the provider settings do', async () => {
    expect(await harness.callFunction(NAME, ['http://127.0.0.1:8080'])).toEqual({
      error: { argument: 0, text: 'the realm cannot be derived from "http://127.0.0.1:8080": its host "127.0.0.1" is an IP address or a single label, which names no realm' },
    });
    expect((await harness.callFunction(NAME, ['http://localhost'])).error).toMatchObject({ argument: 0, text: expect.stringContaining('"localhost" is an IP address or a single label') });
    expect((await harness.callFunction(NAME, ['ftp://acme.example.com'])).error).toMatchObject({ argument: 0, text: expect.stringContaining('only http and https are supported') });
    // Credentials in the address are never repeated.
    const withPassword = await harness.callFunction(NAME, ['https://user:hunter2@acme.example.com']);
    expect(withPassword.error!.text).not.toContain('hunter2');
  });

  it('agrees with the realm the provider settings derive', async () => {
    for (const url of ['https://acme.example.com', 'https://x-1.y.z/', 'http://10.0.0.1']) {
      const diags = new RecordingDiagnostics();
      const settings = resolveProviderSettings({ base_url: url, realm: null, client_id: 'a', client_secret: 'b', access_token: null, request_timeout: null, max_retries: null }, {}, diags);
      const called = await harness.callFunction(NAME, [url]);
      expect(called.result ?? null).toBe(settings?.realm ?? null);
    }
  });
});
