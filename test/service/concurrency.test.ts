import { memberPath, membersCountPath, orgsPath } from '../../src/api';
import type { TestService } from '../helpers/service';
import { call, startServiceWithToken } from './support';

describe('concurrent requests over a real port', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    ({ svc, token } = await startServiceWithToken());
  });
  afterAll(async () => {
    await svc.close();
  });

  it('20 parallel adds of the same member leave one membership, all answering 201', async () => {
    const created = await call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'busy' } });
    const orgId = String(created.headers.location).split('/').pop()!;
    const user = await svc.admin.createUser('acme', { username: 'popular' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(svc, { method: 'PUT', url: memberPath('acme', orgId, user.id), token })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const count = await call(svc, { method: 'GET', url: `${membersCountPath('acme', orgId)}?excludeAdminAccounts=true`, token });
    expect(count.json).toBe(1);
  });

  it('two parallel creates with the same name give one 201 and one 409', async () => {
    const answers = await Promise.all([
      call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'race' } }),
      call(svc, { method: 'POST', url: orgsPath('acme'), token, payload: { name: 'race' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const list = await call(svc, { method: 'GET', url: `${orgsPath('acme')}?search=race`, token });
    expect(list.json).toHaveLength(1);
  });
});
