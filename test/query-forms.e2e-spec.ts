import request from 'supertest';
import { detailOf } from './support/api-responses';
import type { SessionPage } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type TestApp, type Tenant } from './support/test-app';

/**
 * Multi-value filters (issue 29 point 1): the comma form, the repeated form and any mix give the
 * same result and the same 422; any other parameter given twice counts with its last value.
 */
describe('multi-value query filters in both forms', () => {
  let t: TestApp;
  let tenant: Tenant;
  const get = (url: string) => request(t.server).get(url).set('Authorization', `Bearer ${tenant.key}`);
  const ids = (res: request.Response) => (res.body as SessionPage).sessions.map((s) => s.id).sort();

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    const seeded: [string, string, string][] = [
      ['high', 'booked', 'qualified'],
      ['high', 'not_booked', 'qualified'],
      ['medium', 'booked', 'unqualified'],
      ['low', 'not_booked', 'qualified'],
      ['none', 'booked', 'unqualified'],
    ];
    for (const [i, [buyingIntent, bookedStatus, qualificationStatus]] of seeded.entries()) {
      const body = sessionBody({
        buyingIntent,
        bookedStatus,
        qualificationStatus,
        email: `forms${i}@forms.test`,
        startTime: `2026-10-0${i + 1}T10:00:00.000Z`,
      });
      expect((await ingest(t.server, tenant.key, newSessionId(), body)).status).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('reads buying_intent=high,medium, repeated keys and a mix alike', async () => {
    const comma = await get('/api/v1/sessions?buying_intent=high,medium');
    expect(comma.status).toBe(200);
    expect(comma.body.pagination.total).toBe(3);
    for (const query of [
      'buying_intent=high&buying_intent=medium',
      'buying_intent=medium&buying_intent=high',
      'buying_intent=high&buying_intent=medium,high',
      'buying_intent=high,&buying_intent=,medium',
    ]) {
      const res = await get(`/api/v1/sessions?${query}`);
      expect([query, res.status, res.body.pagination.total, ids(res)]).toEqual([query, 200, 3, ids(comma)]);
    }
  });

  it('combines repeated filters of several parameters', async () => {
    const res = await get(
      '/api/v1/sessions?buying_intent=high&buying_intent=low&booked_status=not_booked&qualification_status=qualified&qualification_status=unqualified',
    );
    expect([res.status, res.body.pagination.total]).toEqual([200, 2]);
  });

  it('refuses an unknown value in either form with the same 422 at the parameter', async () => {
    const comma = await get('/api/v1/sessions?buying_intent=high,bogus');
    const repeated = await get('/api/v1/sessions?buying_intent=high&buying_intent=bogus');
    expect(comma.status).toBe(422);
    expect(repeated.status).toBe(422);
    expect(detailOf(repeated)).toEqual(detailOf(comma));
    expect(detailOf(repeated).map((issue) => [issue.type, issue.loc])).toEqual([['enum', ['query', 'buying_intent']]]);
  });

  it('reads every other multi-value filter in both forms', async () => {
    const pairs = [
      ['/api/v1/people', 'buying_intent', 'high', 'medium'],
      ['/api/v1/people', 'qualification_status', 'qualified', 'unqualified'],
      ['/api/v1/custom-link-jobs', 'status', 'queued', 'completed'],
    ] as const;
    for (const [path, name, a, b] of pairs) {
      const comma = await get(`${path}?${name}=${a},${b}`);
      const repeated = await get(`${path}?${name}=${a}&${name}=${b}`);
      expect([path, name, comma.status, repeated.status, repeated.body]).toEqual([path, name, 200, 200, comma.body]);
      const refused = await get(`${path}?${name}=${a}&${name}=nope`);
      expect([path, name, refused.status, detailOf(refused).map((issue) => issue.loc)]).toEqual([
        path,
        name,
        422,
        [['query', name]],
      ]);
    }
  });

  it('keeps the last value of any other parameter given twice', async () => {
    const twice = await get('/api/v1/sessions?limit=1&limit=2');
    expect([twice.status, twice.body.pagination.limit, twice.body.sessions.length]).toEqual([200, 2, 2]);
    const lastInvalid = await get('/api/v1/sessions?limit=2&limit=0');
    expect([lastInvalid.status, detailOf(lastInvalid).map((issue) => issue.loc)]).toEqual([422, [['query', 'limit']]]);
  });

  it('accepts a date or a date-time in date filters', async () => {
    const byDate = await get('/api/v1/sessions?start_time_from=2026-10-02&start_time_to=2026-10-03');
    const byTime = await get(
      '/api/v1/sessions?start_time_from=2026-10-02T00:00:00Z&start_time_to=2026-10-03T00:00:00.000Z',
    );
    expect([byDate.status, byDate.body.pagination.total]).toEqual([200, 1]);
    expect(ids(byDate)).toEqual(ids(byTime));
  });
});
