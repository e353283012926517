/** `provider::orgadmin::domain_verification_record`: the record the service looks up, computed offline. */
import { createHash } from 'node:crypto';
import { domainRecordValue } from '../../../src/api';
import { DOMAIN_VERIFICATION_RECORD_FUNCTION as NAME } from '../../../src/provider/functions/domain-verification-record';
import { createOrgAdminProvider } from '../../../src/provider/provider';
import { ProviderHarness } from '../../../src/tfplugin/testing/harness';

const harness = new ProviderHarness(createOrgAdminProvider({ env: {} }));

describe('domain_verification_record', () => {
  it('gives the record name and the SHA-256 value of "<domain> <organization id>", as the service checks it', async () => {
    const expected = createHash('sha256').update('globex.com 0b9f5c3e-org').digest('hex');
    expect(await harness.callFunction(NAME, ['0b9f5c3e-org', 'globex.com'])).toEqual({ result: { name: '_org-domain-ownership.globex.com', value: expected } });
    expect(domainRecordValue('0b9f5c3e-org', 'globex.com')).toBe(expected);
  });

  it('takes the domain as the service stores it: lower case, no trailing dot', async () => {
    const called = await harness.callFunction(NAME, ['org-1', 'Globex.COM.']);
    expect(called).toEqual({ result: { name: '_org-domain-ownership.globex.com', value: domainRecordValue('org-1', 'globex.com') } });
  });

  it('fails on the argument at fault', async () => {
    expect(await harness.callFunction(NAME, ['', 'globex.com'])).toEqual({ error: { argument: 0, text: 'the organization id is empty' } });
    expect((await harness.callFunction(NAME, ['org-1', 'https://globex.com/'])).error).toMatchObject({ argument: 1, text: expect.stringContaining('is a URL') });
  });
});
