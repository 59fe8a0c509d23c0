import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import request from 'supertest';
import { IntentRefreshService } from '../src/modules/people/intent-refresh.service';
import type { Account, BuyingIntent, IngestedSession, Person, SessionDetail } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * The daily intent recomputation (docs/api.md §13.4: recomputed on ingestion and daily, ages
 * measured from intentCalculatedAt): a repeatable Bull job in the worker role, and the service it runs.
 *
 * Note on the formula: the weights 0.5^(age/14) of two past sessions keep their ratio as both age,
 * so time alone never moves the weighted mean; what daily recomputation changes is the 30-day
 * frequency bonus (and sessions that start after the previous calculation, whose age was 0).
 */

const QUEUE = 'people-intent';
const JOB = 'refresh-intent';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 86_400_000;
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY + minutes * 60_000).toISOString();

const INTENT_VALUE: Record<BuyingIntent, number> = { none: 0, low: 1, medium: 2, high: 3 };

interface Visit {
  startTime: string;
  buyingIntent: BuyingIntent;
}

/** docs/api.md §13.4: the intent score of `sessions` as of `calculatedAt`. */
function expectedIntentScore(sessions: Visit[], calculatedAt: string): number {
  const reference = Date.parse(calculatedAt);
  let weights = 0;
  let weighted = 0;
  let recent = 0;
  for (const { startTime, buyingIntent } of sessions) {
    const ageDays = Math.max(0, (reference - Date.parse(startTime)) / DAY);
    if (ageDays <= 30) recent += 1;
    const weight = 0.5 ** (ageDays / 14);
    weights += weight;
    weighted += weight * INTENT_VALUE[buyingIntent];
  }
  const bonus = Math.max(0, Math.min(0.5, 0.1 * (recent - 1)));
  return Math.min(3, Math.max(0, (weights === 0 ? 0 : weighted / weights) + bonus));
}

describe('worker role: daily intent recomputation', () => {
  let t: TestApp;
  let queue: Queue;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all' });
    queue = t.app.get<Queue>(getQueueToken(QUEUE));
  });
  afterAll(() => t.close());

  const put = async (who: Tenant, id: string, body: Record<string, unknown>) =>
    (await ingest(t.server, who.key, id, body).expect(200)).body as IngestedSession;
  const getPerson = async (who: Tenant, id: string): Promise<Person> =>
    (await request(t.server).get(`/api/v1/people/${id}`).set('Authorization', `Bearer ${who.key}`).expect(200))
      .body as Person;
  const getAccount = async (who: Tenant, domain: string) =>
    (await request(t.server).get(`/api/v1/accounts/${domain}`).set('Authorization', `Bearer ${who.key}`).expect(200))
      .body as Account;
  /** Ingests one 10-minute session per visit for `email`; returns the person id and the session ids. */
  const seed = async (who: Tenant, email: string, visits: Visit[]) => {
    const sessionIds: string[] = [];
    let personId = '';
    for (const v of visits) {
      const id = newSessionId();
      sessionIds.push(id);
      const ingested = await put(
        who,
        id,
        sessionBody({ ...v, email, endTime: new Date(Date.parse(v.startTime) + 600_000).toISOString() }),
      );
      if (ingested.personId === null) throw new Error(`session ${id} with email ${email} has no person`);
      personId = ingested.personId;
    }
    return { personId, sessionIds };
  };

  it('registers one daily repeatable refresh-intent job', async () => {
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === JOB));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === JOB);
    expect(jobs).toHaveLength(1);
    // Minute and hour fixed, every day of every month, any weekday (an optional seconds field first).
    expect(jobs[0].cron).toMatch(/^(\d{1,2} )?\d{1,2} \d{1,2} \* \* \*$/);
  });

  it('recomputes an organization as of a later day: the score follows the formula, levels and the account follow', async () => {
    const [who, bystander] = [await t.createTenant(), await t.createTenant()];
    // Four sessions in the last four days: mean ≈ 1.77 plus 0.3 bonus ≈ 2.07 (high). 28 days on, two of
    // them are older than 30 days: the bonus drops to 0.1 and the score to ≈ 1.87 (medium).
    const decaying: Visit[] = [
      { startTime: ago(0.5), buyingIntent: 'medium' },
      { startTime: ago(1.5), buyingIntent: 'medium' },
      { startTime: ago(2.5), buyingIntent: 'medium' },
      { startTime: ago(3.5), buyingIntent: 'low' },
    ];
    const steady: Visit[] = [{ startTime: ago(1), buyingIntent: 'high' }];
    const decay = await seed(who, 'decay@acme.com', decaying);
    const stay = await seed(who, 'steady@acme.com', steady);
    const other = await seed(bystander, 'decay@acme.com', decaying);

    const before = await getPerson(who, decay.personId);
    expect(before.intentScore).toBeCloseTo(expectedIntentScore(decaying, before.intentCalculatedAt), 6);
    expect(before.overallIntent).toBe('high');
    expect(await getAccount(who, 'acme.com')).toMatchObject({ highIntentUsers: 2 });
    const bystanderBefore = await getPerson(bystander, other.personId);

    const asOf = new Date(Date.now() + 28 * DAY);
    await t.app.get(IntentRefreshService).refreshOrganization(who.organizationId, asOf);

    const after = await getPerson(who, decay.personId);
    expect(after.intentCalculatedAt).toBe(asOf.toISOString());
    expect(after.intentScore).toBeCloseTo(expectedIntentScore(decaying, asOf.toISOString()), 6);
    expect(after.intentScore).toBeLessThan(before.intentScore - 0.15);
    expect(after.overallIntent).toBe('medium');

    const steadyAfter = await getPerson(who, stay.personId);
    expect(steadyAfter).toMatchObject({ intentCalculatedAt: asOf.toISOString(), overallIntent: 'high' });
    expect(steadyAfter.intentScore).toBeCloseTo(3, 6); // one session: the mean of one value ignores its weight

    expect(await getAccount(who, 'acme.com')).toMatchObject({ highIntentUsers: 1 });
    // Sessions show their person's intent (docs/api.md §13.3).
    const session = await request(t.server)
      .get(`/api/v1/sessions/${decay.sessionIds[0]}`)
      .set('Authorization', `Bearer ${who.key}`)
      .expect(200);
    expect(session.body).toMatchObject({
      personId: decay.personId,
      overallIntent: 'medium',
      intentCalculatedAt: asOf.toISOString(),
    });
    expect((session.body as SessionDetail).intentScore).toBeCloseTo(after.intentScore, 9);
    // Another organization is not touched.
    expect(await getPerson(bystander, other.personId)).toEqual(bystanderBefore);
  });

  it('runs when the job is enqueued', async () => {
    const who = await t.createTenant();
    const { personId } = await seed(who, 'queued@acme.com', [
      { startTime: ago(2), buyingIntent: 'high' },
      { startTime: ago(9), buyingIntent: 'low' },
    ]);
    const before = await getPerson(who, personId);
    expect(before.intentCalculatedAt).toMatch(ISO_MS_Z);
    // Scoped to this organization (a backfill option of the payload), so the run does not walk every
    // other spec file's organizations in the shared database.
    await eventually(async () => Date.now() > Date.parse(before.intentCalculatedAt) + 5, 1000, 5);
    const asOf = new Date().toISOString();

    await queue.add(JOB, { asOf, organizationId: who.organizationId });

    await eventually(
      async () => (await getPerson(who, personId)).intentCalculatedAt !== before.intentCalculatedAt,
      15000,
      100,
    );
    const after = await getPerson(who, personId);
    expect(after.intentCalculatedAt).toBe(asOf);
    expect(after.intentScore).toBeCloseTo(
      expectedIntentScore(
        [
          { startTime: ago(2), buyingIntent: 'high' },
          { startTime: ago(9), buyingIntent: 'low' },
        ],
        asOf,
      ),
      6,
    );
    expect(after.overallIntent).toBe('high');
  }, 30_000);
});
