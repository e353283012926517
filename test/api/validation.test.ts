/**
 * One table of inputs per rule of src/api/validation.ts, run against the rule itself and against
 * every part that applies it: the service (HTTP 400 and what it stores), the provider (a
 * diagnostic on the attribute) and the constructs (a ConstructValidationError). A row that one
 * part accepts and another refuses fails here, so the three cannot drift apart again.
 */
import { App, TerraformStack } from 'cdktf';
import {
  attributeKeyProblem,
  attributeValueProblem,
  displayNameProblem,
  domainProblem,
  emailProblem,
  hasLoneSurrogate,
  RESERVED_KEYS,
  textProblem,
  MAX_DOMAIN_LENGTH,
  MAX_NAME_LENGTH,
  MAX_URL_LENGTH,
  nameProblem,
  normalizeDomain,
  orgAdminUsername,
  orgPath,
  orgsPath,
  realmNameProblem,
  reservedUsernameProblem,
  serviceAccountUsername,
  spoofingProblem,
  requestTimeoutProblem,
  retriesProblem,
  urlProblem,
} from '../../src/api';
import { ConstructValidationError, OrgAdminProvider, Organization, User } from '../../src/constructs';
import { RecordingDiagnostics, errorsOf } from '../../src/tfplugin/testing/harness';
import type { ObjectValue } from '../../src/tfplugin/framework/types';
import { organizationResource } from '../../src/provider/resources/organization';
import { validateProviderConfig } from '../../src/provider/settings';
import { AdminError } from '../../src/service/admin';
import type { TestService } from '../helpers/service';
import { call, startServiceWithToken } from '../service/support';

const longLabel = 'a'.repeat(64);
const longDomain = `${'abcdefghi.'.repeat(25)}example`; // 257 characters
/** Exactly 253 characters, the longest DNS name: with the root's trailing dot it is 254 as written. */
const longestDomain = `${'abcdefghi.'.repeat(24)}abcdefghijklm`;

/** [input, accepted?] rows, each run against every part. */
const DOMAINS: Array<[string, boolean]> = [
  ['example.com', true],
  ['Example.COM', true],
  ['example.com.', true],
  [' example.com ', true],
  ['localhost', true],
  ['xn--bcher-kva.example', true],
  ['a-b.c0', true],
  ['', false],
  [' ', false],
  ['a..b', false],
  ['.example.com', false],
  ['example.com..', false],
  ['https://example.com', false],
  ['example.com/path', false],
  ['bad domain', false],
  ['-a.com', false],
  ['a-.com', false],
  ['ex_ample.com', false],
  [`${longLabel}.com`, false],
  [longDomain, false],
  [longestDomain, true],
  [`${longestDomain}.`, true],
];

const URLS: Array<[string, boolean]> = [
  ['https://example.com', true],
  ['http://localhost:8080/home?x=1', true],
  ['HTTPS://EXAMPLE.COM/', true],
  [`https://example.com/${'p'.repeat(MAX_URL_LENGTH - 'https://example.com/'.length)}`, true],
  [`https://example.com/${'p'.repeat(MAX_URL_LENGTH)}`, false],
  ['example.com', false],
  ['/relative', false],
  ['ftp://example.com', false],
  ['mailto:someone@example.com', false],
  ['https://', false],
];

const NAMES: Array<[string, boolean]> = [
  ['acme', true],
  [' padded ', true],
  ['Acme Inc. (Europe)', true],
  ['x'.repeat(MAX_NAME_LENGTH), true],
  ['', false],
  ['   ', false],
  ['x'.repeat(MAX_NAME_LENGTH + 1), false],
  ['tab\there', false],
  ['nul\u0000', false],
  ['lone \ud800 surrogate', false],
  ['emoji 😀', true],
  // ZWJ sequences are one visible emoji; a joiner between letters (Indic scripts) is ordinary text.
  ['family 👩\u200d👩\u200d👧', true],
  ['क्\u200dष', true],
  // Look-alikes (issue 27, finding 8): a right-to-left override, invisible-only text, C1 and DEL.
  ['invoice\u202eexe.pdf', false],
  ['\u2066isolate\u2069', false],
  ['mark\u200f', false],
  ['\u200b', false],
  ['\u200b\u200c\u2060', false],
  [' \u200d ', false],
  ['c1 \u0085 control', false],
  ['del \u007f', false],
];

const REALMS: Array<[string, boolean]> = [
  ['beta', true], // not acme: the test service already has that realm
  ['a', true],
  ['team-2', true],
  ['0'.repeat(63), true],
  ['', false],
  [' ', false],
  ['Acme', false],
  ['a/b', false],
  ['a.b', false],
  ['a_b', false],
  ['-acme', false],
  ['acme-', false],
  [' acme', false],
  ['a'.repeat(64), false],
];

const EMAILS: Array<[string, boolean]> = [
  ['alice@example.com', true],
  ['admin@localhost', true],
  ['not-an-email', false],
  ['two@at@example.com', false],
  ['space in@example.com', false],
  ['@example.com', false],
  ['alice@', false],
];

const USERNAMES: Array<[string, boolean]> = [
  ['alice', true],
  ['org-admin', true],
  ['my-org-admin-1', true],
  ['org-admin-1', false],
  ['Org-Admin-1', false],
  ['service-account-x', false],
  ['SERVICE-ACCOUNT-x', false],
];

const RETRIES: Array<[number, boolean]> = [
  [0, true],
  [5, true],
  [20, true],
  [-1, false],
  [1.5, false],
  [21, false],
];

const TIMEOUTS: Array<[number, boolean]> = [
  [0.5, true],
  [30, true],
  [3600, true],
  [0, false],
  [-1, false],
  [3601, false],
];

/** The problems a construct reports, or [] when it builds. */
function constructProblems(build: (stack: TerraformStack) => void): readonly string[] {
  const stack = new TerraformStack(new App(), 'validation');
  new OrgAdminProvider(stack, 'orgadmin', { baseUrl: 'https://acme.example.com' });
  try {
    build(stack);
    return [];
  } catch (error) {
    if (error instanceof ConstructValidationError) return error.problems;
    throw error;
  }
}

/** The provider's errors on an `orgadmin_organization` configuration, as attribute paths. */
function providerErrorPaths(config: Record<string, unknown>): unknown[] {
  const diags = new RecordingDiagnostics();
  organizationResource.validate!(config as ObjectValue, diags);
  return errorsOf(diags.diagnostics).map((d) => d.path);
}

/** The provider's errors on the provider block. */
function providerBlockErrorPaths(config: Record<string, unknown>): unknown[] {
  const diags = new RecordingDiagnostics();
  validateProviderConfig(config as ObjectValue, diags);
  return errorsOf(diags.diagnostics).map((d) => d.path);
}

describe('one validation rule for the service, the provider and the constructs', () => {
  let svc: TestService;
  let token: string;
  let count = 0;
  const uniqueName = (): string => `validation-${(count += 1)}`;

  /** Creates an organization; answers the HTTP status and, on 201, the stored organization. */
  async function serviceCreate(body: Record<string, unknown>): Promise<{ status: number; stored?: Record<string, unknown> }> {
    const res = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: body });
    if (res.status !== 201) {
      expect(res.json).toEqual({ error: 'invalid_body', error_description: expect.any(String) });
      return { status: res.status };
    }
    const id = decodeURIComponent(String(res.headers.location).split('/').pop() ?? '');
    const stored = await call(svc, { method: 'GET', url: orgPath('acme', id), token });
    return { status: res.status, stored: stored.json as Record<string, unknown> };
  }

  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  it('bounds the table at the limits it names', () => {
    expect(longDomain.length).toBeGreaterThan(MAX_DOMAIN_LENGTH);
    expect(URLS[3]![0]).toHaveLength(MAX_URL_LENGTH);
  });

  describe.each(DOMAINS)('the domain %j', (domain, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule`, () => {
      expect(domainProblem(domain) === undefined).toBe(accepted);
    });
    it(`is ${accepted ? 'accepted and stored normalized' : 'refused with a 400'} by the service`, async () => {
      const { status, stored } = await serviceCreate({ name: uniqueName(), domains: [domain] });
      expect(status).toBe(accepted ? 201 : 400);
      if (accepted) expect(stored!['domains']).toEqual([normalizeDomain(domain)]);
    });
    // The provider's state holds what the service stores: it takes only that form, and names it.
    const stored = accepted && normalizeDomain(domain) === domain;
    it(`is ${stored ? 'accepted' : 'refused'} by the provider${accepted && !stored ? ' (not in the stored form)' : ''}`, () => {
      expect(providerErrorPaths({ name: 'x', domains: [domain] })).toEqual(stored ? [] : [['domains']]);
    });
    it(`is ${accepted ? 'accepted, and written in the stored form,' : 'refused'} by the constructs`, () => {
      expect(constructProblems((stack) => new Organization(stack, 'org', { name: 'x', domains: [domain] }))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe('two spellings of one domain', () => {
    const spellings = ['example.com', 'EXAMPLE.com.'];
    it('are stored once by the service', async () => {
      const { stored } = await serviceCreate({ name: uniqueName(), domains: spellings });
      expect(stored!['domains']).toEqual(['example.com']);
    });
    it('are refused by the provider and the constructs, whose sets would otherwise hold two', () => {
      expect(providerErrorPaths({ name: 'x', domains: spellings })).toEqual([['domains']]);
      expect(constructProblems((stack) => new Organization(stack, 'org', { name: 'x', domains: spellings }))).toEqual([
        'domains[1] repeats the domain "example.com".',
      ]);
    });
  });

  describe.each(URLS)('the organization URL %j', (url, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the service, the provider and the constructs`, async () => {
      expect(urlProblem(url) === undefined).toBe(accepted);
      const { status, stored } = await serviceCreate({ name: uniqueName(), url });
      expect(status).toBe(accepted ? 201 : 400);
      if (accepted) expect(stored!['url']).toBe(url);
      expect(providerErrorPaths({ name: 'x', url })).toEqual(accepted ? [] : [['url']]);
      expect(constructProblems((stack) => new Organization(stack, 'org', { name: 'x', url }))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe.each(NAMES)('the organization name %j', (name, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the service, the provider and the constructs`, async () => {
      expect(nameProblem(name) === undefined).toBe(accepted);
      const { status, stored } = await serviceCreate({ name });
      expect(status).toBe(accepted ? 201 : 400);
      if (accepted) expect(stored!['name']).toBe(name);
      expect(providerErrorPaths({ name })).toEqual(accepted ? [] : [['name']]);
      expect(constructProblems((stack) => new Organization(stack, 'org', { name }))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe.each(REALMS)('the realm name %j', (realm, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the service, the provider and the constructs`, async () => {
      expect(realmNameProblem(realm) === undefined).toBe(accepted);
      if (accepted) {
        await expect(svc.admin.createRealm(realm)).resolves.toMatchObject({ name: realm });
      } else {
        await expect(svc.admin.createRealm(realm)).rejects.toBeInstanceOf(AdminError);
        expect(await svc.admin.getRealm(realm)).toBeUndefined();
      }
      expect(providerErrorPaths({ name: 'x', realm })).toEqual(accepted ? [] : [['realm']]);
      expect(providerBlockErrorPaths({ realm })).toEqual(accepted ? [] : [['realm']]);
      expect(constructProblems((stack) => new Organization(stack, 'org', { name: 'x', realm }))).toHaveLength(accepted ? 0 : 1);
      expect(constructProblems((stack) => new OrgAdminProvider(stack, 'other', { realm, alias: 'other' }))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe.each(EMAILS)('the email %j', (email, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the service and the constructs`, async () => {
      expect(emailProblem(email) === undefined).toBe(accepted);
      const username = uniqueName();
      if (accepted) {
        await expect(svc.admin.createUser('acme', { username, email })).resolves.toMatchObject({ email });
      } else {
        await expect(svc.admin.createUser('acme', { username, email })).rejects.toThrow(new AdminError(`Email "${email}" is not a valid address.`));
        expect(await svc.admin.findUserByUsername('acme', username)).toBeUndefined();
      }
      expect(constructProblems((stack) => User.fromEmail(stack, 'user', email))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe.each(USERNAMES)('the username %j', (username, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused as reserved'} by the rule and the service`, async () => {
      expect(reservedUsernameProblem(username) === undefined).toBe(accepted);
      if (accepted) {
        await expect(svc.admin.createUser('acme', { username })).resolves.toMatchObject({ username });
      } else {
        await expect(svc.admin.createUser('acme', { username })).rejects.toThrow(new AdminError(`Username "${username}" is reserved for users the service creates itself.`));
      }
    });
  });

  it('names the users the service makes with the reserved prefixes', () => {
    expect(reservedUsernameProblem(orgAdminUsername('o1'))).toBeDefined();
    expect(reservedUsernameProblem(serviceAccountUsername('c1'))).toBeDefined();
  });

  describe.each(RETRIES)('max retries %j', (retries, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the provider and the constructs`, () => {
      expect(retriesProblem(retries) === undefined).toBe(accepted);
      expect(providerBlockErrorPaths({ max_retries: retries })).toEqual(accepted ? [] : [['max_retries']]);
      expect(constructProblems((stack) => new OrgAdminProvider(stack, 'other', { maxRetries: retries, alias: 'other' }))).toHaveLength(accepted ? 0 : 1);
    });
  });

  describe.each(TIMEOUTS)('request timeout %j', (seconds, accepted) => {
    it(`is ${accepted ? 'accepted' : 'refused'} by the rule, the provider and the constructs`, () => {
      expect(requestTimeoutProblem(seconds) === undefined).toBe(accepted);
      expect(providerBlockErrorPaths({ request_timeout: seconds })).toEqual(accepted ? [] : [['request_timeout']]);
      expect(constructProblems((stack) => new OrgAdminProvider(stack, 'other', { requestTimeout: seconds, alias: 'other' }))).toHaveLength(accepted ? 0 : 1);
    });
  });
});

describe('text the service can store as it was sent', () => {
  it.each([
    ['a tab', 'a\tb', 'must not contain control characters (U+0000 to U+001F)'],
    ['NUL', 'a\u0000b', 'must not contain control characters (U+0000 to U+001F)'],
    ['a lone high surrogate', 'a\ud800', 'is not valid Unicode (it holds an unpaired UTF-16 surrogate)'],
    ['a lone low surrogate', '\udc00b', 'is not valid Unicode (it holds an unpaired UTF-16 surrogate)'],
    ['surrogates in the wrong order', '\udc00\ud800', 'is not valid Unicode (it holds an unpaired UTF-16 surrogate)'],
  ])('refuses %s', (_what, text, problem) => {
    expect(textProblem(text)).toBe(problem);
    expect(nameProblem(text)).toBe(problem);
  });

  it.each([
    ['a right-to-left override', 'abc\u202edef', 'must not contain characters that change the text direction (such as U+202E)'],
    ['zero-width characters only', '\u200b\u2060', 'must contain a visible character'],
    ['a C1 control', 'a\u009bb', 'must not contain control characters (U+007F to U+009F)'],
    ['DEL', 'a\u007f', 'must not contain control characters (U+007F to U+009F)'],
  ])('refuses %s in names and display names, by one rule', (_what, text, problem) => {
    expect(spoofingProblem(text)).toBe(problem);
    expect(nameProblem(text)).toBe(problem);
    expect(displayNameProblem(text)).toBe(problem);
    // Other text (attribute values) may hold them: it is data, not a name shown in a list.
    expect(textProblem(text)).toBeUndefined();
  });

  it('leaves a blank display name allowed (it means none)', () => {
    expect(displayNameProblem('')).toBeUndefined();
    expect(displayNameProblem(' ')).toBeUndefined();
  });

  it('accepts paired surrogates, accents and other scripts', () => {
    for (const text of ['emoji 😀', 'ünïcødé', '東京', '\ud83d\ude00']) {
      expect(textProblem(text)).toBeUndefined();
      expect(hasLoneSurrogate(text)).toBe(false);
    }
  });

  it('refuses the reserved attribute keys, an empty key and unstorable text as attribute keys', () => {
    for (const key of RESERVED_KEYS) expect(attributeKeyProblem(key)).toContain('is reserved');
    expect(RESERVED_KEYS).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(attributeKeyProblem(' ')).toBe('must not be empty');
    expect(attributeKeyProblem('k\u0007')).toContain('control characters');
    expect(attributeKeyProblem('tier')).toBeUndefined();
    expect(attributeValueProblem('x\u0000')).toContain('control characters');
  });
});
