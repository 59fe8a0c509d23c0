import request from 'supertest';
import type { Account, IngestedSession, PeoplePage } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Rollups under concurrency: ingestions of one person and one account from two API instances at
 * once must leave the same rows as ingesting them one by one (advisory locks serialise rollups).
 */
describe('concurrent ingestion', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '100000' };
    [first, second] = await Promise.all([createTestApp(env), createTestApp(env)]);
  });

  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  it('counts every session of one person and one account when 24 ingestions race across two instances', async () => {
    const { key } = await first.createTenant();
    const emails = ['ada@race.io', 'ADA@race.io', 'grace@race.io', 'alan@eu.race.io'];
    const bodies = Array.from({ length: 24 }, (_, i) => ({
      id: newSessionId(),
      body: sessionBody({
        email: emails[i % emails.length],
        startTime: new Date(Date.UTC(2026, 10, 1 + (i % 20), 10)).toISOString(),
        endTime: new Date(Date.UTC(2026, 10, 1 + (i % 20), 10, 10)).toISOString(),
        bookedStatus: i % 3 === 0 ? 'booked' : 'not_booked',
      }),
    }));
    const responses = await Promise.all(
      bodies.map(({ id, body }, i) => ingest((i % 2 === 0 ? first : second).server, key, id, body)),
    );
    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 200));

    const auth = { Authorization: `Bearer ${key}` };
    const people = (await request(first.server).get('/api/v1/people').set(auth).expect(200)).body as PeoplePage;
    const byEmail = Object.fromEntries(people.people.map((p) => [p.email, p]));
    expect(Object.keys(byEmail).sort()).toEqual(['ada@race.io', 'alan@eu.race.io', 'grace@race.io']);
    expect(byEmail['ada@race.io'].totalSessions).toBe(12);
    expect(byEmail['grace@race.io'].totalSessions).toBe(6);
    expect(byEmail['alan@eu.race.io'].totalSessions).toBe(6);
    expect(byEmail['ada@race.io'].totalTimeSpentSeconds).toBe(12 * 600);

    const account = (await request(second.server).get('/api/v1/accounts/race.io').set(auth).expect(200))
      .body as Account;
    expect(account).toMatchObject({
      totalUsers: 3,
      totalSessions: 24,
      bookedSessions: 8,
      totalTimeSpentSeconds: 24 * 600,
    });
    const ids = new Set(responses.filter((_, i) => i % 4 < 2).map((r) => (r.body as IngestedSession).personId));
    expect(ids.size).toBe(1);
  });

  it('lets exactly one organization own a session id when two organizations race for it', async () => {
    const [a, b] = await Promise.all([first.createTenant(), second.createTenant()]);
    const id = newSessionId();
    const [ra, rb] = await Promise.all([
      ingest(first.server, a.key, id, sessionBody()),
      ingest(second.server, b.key, id, sessionBody()),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
  });
});
