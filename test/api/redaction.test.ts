import { REDACTED, redactKnownSecrets, redactUnknownSecrets } from '../../src/api/redaction';

describe('redactKnownSecrets', () => {
  it('replaces every occurrence, raw and form-encoded, with the marker given', () => {
    const secret = 'a+b/c=d&e f';
    const encoded = new URLSearchParams({ s: secret }).toString().slice(2);
    expect(redactKnownSecrets(`${secret} and form ${encoded}`, [secret])).toBe(`${REDACTED} and form ${REDACTED}`);
    expect(redactKnownSecrets('x-secret-1 twice x-secret-1', ['x-secret-1'], '***')).toBe('*** twice ***');
  });

  it('hides a secret that contains another one whole', () => {
    expect(redactKnownSecrets('token abcd-efgh-ijkl', ['abcd', 'abcd-efgh-ijkl'])).toBe(`token ${REDACTED}`);
  });

  it('leaves text alone for empty, missing and very short values', () => {
    expect(redactKnownSecrets('abc ab', ['', undefined, 'ab'])).toBe('abc ab');
  });
});

describe('redactUnknownSecrets', () => {
  it('hides secret query values, compact JWTs and long opaque runs, keeping UUIDs', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    expect(redactUnknownSecrets('/x?code=123&password=p;token=t#f')).toBe(`/x?code=${REDACTED}&password=${REDACTED};token=${REDACTED}#f`);
    expect(redactUnknownSecrets(`Bearer ${jwt}`)).toBe(`Bearer ${REDACTED}`);
    expect(redactUnknownSecrets(`/orgs/${'Z'.repeat(43)}`)).toBe(`/orgs/${REDACTED}`);
    expect(redactUnknownSecrets('/orgs/3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe('/orgs/3f2504e0-4f89-11d3-9a0c-0305e82c3301');
  });

  it('hides every run of 40 or more characters whole, wherever it starts, and no shorter run', () => {
    const secret = 'k'.repeat(40);
    expect(redactUnknownSecrets(secret)).toBe(REDACTED);
    expect(redactUnknownSecrets('k'.repeat(39))).toBe('k'.repeat(39));
    expect(redactUnknownSecrets(`a/${secret}x/${'b'.repeat(39)}/${'-_'.repeat(30)}.end`)).toBe(`a/${REDACTED}/${'b'.repeat(39)}/${REDACTED}.end`);
    expect(redactUnknownSecrets(`${secret}/${secret}`)).toBe(`${REDACTED}/${REDACTED}`);
  });
});
