import request from 'supertest';
import { detailOf } from './support/api-responses';
import type {
  Account,
  AccountActivityItem,
  AccountActivityPage,
  AccountEngagement,
  AccountPage,
  EventInput,
  EventsAnswer,
  IngestedSession,
  PeoplePage,
  Person,
} from './support/api-types';
import { folded } from './support/fold';
import { createLinks } from './support/links';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Accounts through HTTP: docs/api.md §2.5, §4.2, §13.5 (account rules), and their links' engagement
 * (§2.5 `engagement`, issue 33 point 4); DECISIONS "Sessions, people, accounts (issue 3)" (account
 * fields, account path). Links are made by creation jobs and events folded by the app's own workers
 * (APP_ROLE all).
 */

const ACCOUNTS = '/api/v1/accounts';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { detail: "Account not found for the key's organization." };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const UNAUTHORIZED = { detail: 'API key required or invalid.' };
const NO_ENGAGEMENT: AccountEngagement = {
  linkCount: 0,
  openedLinkCount: 0,
  engagedLinkCount: 0,
  leadSubmittedLinkCount: 0,
  meetingBookedLinkCount: 0,
  uniqueVisitorCount: 0,
  sessionCount: 0,
  lastActivityAt: null,
};

const DAY = 86_400_000;
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
/** The instant `days` days before the run started, plus `minutes`. */
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY + minutes * 60_000).toISOString();

const NO_QUALIFICATION = {
  qualificationStatus: null,
  qualificationReason: null,
  qualificationRationale: null,
  qualificationSource: null,
  qualificationAssessedAt: null,
  qualificationRubricVersionId: null,
  qualificationStage: null,
};

/** A full ingestion body for `email`, starting `days` ago and lasting `minutes`. */
function visit(email: string, days: number, minutes: number, over: Record<string, unknown> = {}) {
  const startTime = ago(days);
  return sessionBody({ email, startTime, endTime: ago(days, minutes), qualificationAssessedAt: null, ...over });
}

describe('accounts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant();
  const put = async (who: Tenant, id: string, body: Record<string, unknown>) =>
    (await ingest(t.server, who.key, id, body).expect(200)).body as IngestedSession;
  const get = (who: Tenant, domain: string) =>
    request(t.server).get(`${ACCOUNTS}/${domain}`).set('Authorization', `Bearer ${who.key}`);
  const getOk = async (who: Tenant, domain: string): Promise<Account> =>
    (await get(who, domain).expect(200)).body as Account;
  const people = async (who: Tenant): Promise<Person[]> =>
    (
      (await request(t.server).get('/api/v1/people').set('Authorization', `Bearer ${who.key}`).expect(200))
        .body as PeoplePage
    ).people;

  /** Minute `n` of 2026-03-01 (UTC). */
  const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();
  let seq = 0;
  /** An event of `link`: human and external unless it says otherwise. */
  const event = (link: { id: string }, type: EventInput['type'], minute: number, over: Partial<EventInput> = {}) =>
    ({
      eventId: `acct-${process.pid}-${++seq}`,
      type,
      customLinkId: link.id,
      occurredAt: at(minute),
      ...over,
    }) as EventInput;
  /** Posts events and waits for the fold (docs/api.md §6.4), so the rollups hold them. */
  const send = async (who: Tenant, events: EventInput[]) => {
    const res = await request(t.server).post('/api/v1/events').set('x-api-key', who.key).send({ events }).expect(202);
    expect((res.body as EventsAnswer).accepted).toBe(events.length);
    await folded(t.app, who.organizationId);
  };

  describe('rollup', () => {
    it('rolls up the people of a registrable domain across its subdomains (every field of docs/api.md §2.5)', async () => {
      const who = await tenant();
      await put(
        who,
        newSessionId(),
        visit('a@acme.com', 3, 30, {
          bookedStatus: 'booked',
          buyingIntent: 'high',
          qualificationStatus: 'qualified',
          business: 'Acme Inc',
          summaryMarkdown: 'a-1',
        }),
      );
      await put(
        who,
        newSessionId(),
        visit('A@acme.com', 1, 20, {
          bookedStatus: 'not_booked',
          buyingIntent: 'high',
          qualificationStatus: 'qualified',
          business: 'Acme Inc',
          summaryMarkdown: 'a-2',
        }),
      );
      await put(
        who,
        newSessionId(),
        visit('b@eu.acme.com', 2, 10, {
          bookedStatus: 'booked',
          buyingIntent: 'low',
          qualificationStatus: 'unqualified',
          business: 'Acme Europe',
          summaryMarkdown: null,
        }),
      );
      await put(
        who,
        newSessionId(),
        visit('c@Sales.ACME.com', 4, 5, {
          bookedStatus: 'not_booked',
          buyingIntent: 'none',
          business: 'Acme Inc',
          summaryMarkdown: 'c-1',
          ...NO_QUALIFICATION,
        }),
      );
      await put(
        who,
        newSessionId(),
        visit('other@other.com', 0.5, 60, { bookedStatus: 'booked', buyingIntent: 'high', business: 'Other' }),
      );
      await put(
        who,
        newSessionId(),
        visit('joe@gmail.com', 0.5, 60, { bookedStatus: 'booked', buyingIntent: 'high', business: 'Acme Inc' }),
      );

      const account = await getOk(who, 'acme.com');
      expect(account).toEqual({
        id: expect.stringMatching(UUID),
        accountDomain: 'acme.com',
        companyName: 'Acme Inc', // a and c against b's 'Acme Europe'
        totalUsers: 3,
        totalSessions: 4,
        bookedSessions: 2,
        highIntentUsers: 1, // a (3 + 0.1); b is medium (1.0), c low (0)
        qualifiedUsers: 1, // b is unqualified, c has no assessment
        totalTimeSpentSeconds: (30 + 20 + 10 + 5) * 60,
        lastSeenAt: ago(1, 20),
        summaryMarkdown: 'a-2', // a is the most recently seen person, and its latest summary
        updatedAt: expect.stringMatching(ISO_MS_Z),
        engagement: NO_ENGAGEMENT,
      });
      expect(account.lastSeenAt).toMatch(ISO_MS_Z);

      const members = (await people(who)).filter((p) => p.accountDomain === 'acme.com');
      expect(members.map((p) => p.email).sort()).toEqual(['a@acme.com', 'b@eu.acme.com', 'c@sales.acme.com']);
      expect(members.filter((p) => p.overallIntent === 'high').map((p) => p.email)).toEqual(['a@acme.com']);
      expect(await getOk(who, 'other.com')).toMatchObject({
        accountDomain: 'other.com',
        totalUsers: 1,
        companyName: 'Other',
      });
    });

    it('names the company by the most frequent business, ties going to the most recently seen person', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('p1@acme.com', 3, 10, { business: 'Acme Inc', summaryMarkdown: 's1' }));
      await put(
        who,
        newSessionId(),
        visit('p2@acme.com', 2, 10, { business: 'Acme Corporation', summaryMarkdown: 's2' }),
      );
      expect(await getOk(who, 'acme.com')).toMatchObject({
        companyName: 'Acme Corporation',
        summaryMarkdown: 's2',
        totalUsers: 2,
      });

      // The most recently seen person has no business and no summary: neither counts.
      await put(who, newSessionId(), visit('p3@acme.com', 1, 10, { business: null, summaryMarkdown: null }));
      expect(await getOk(who, 'acme.com')).toMatchObject({
        companyName: 'Acme Corporation',
        summaryMarkdown: 's2',
        totalUsers: 3,
      });

      await put(who, newSessionId(), visit('p4@acme.com', 4, 10, { business: 'Acme Inc' }));
      expect(await getOk(who, 'acme.com')).toMatchObject({
        companyName: 'Acme Inc',
        summaryMarkdown: 's2',
        totalUsers: 4,
      });
    });

    it('has a null companyName and summary when no person has one', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('x@nameless.io', 1, 10, { business: null, summaryMarkdown: null }));
      expect(await getOk(who, 'nameless.io')).toMatchObject({
        companyName: null,
        summaryMarkdown: null,
        totalUsers: 1,
        totalSessions: 1,
      });
    });
  });

  describe('domain in the path', () => {
    it.each(['acme.com', 'ACME.com.', 'Acme.Com', 'eu.acme.com', 'www.EU.acme.com.', 'ACME.COM%2E'])(
      'finds acme.com as %s',
      async (domain) => {
        const who = await tenant();
        await put(who, newSessionId(), visit('a@acme.com', 1, 10));
        const { id } = await getOk(who, 'acme.com');
        expect(await getOk(who, domain)).toMatchObject({ id, accountDomain: 'acme.com', totalUsers: 1 });
      },
    );

    it('reduces to the registrable domain under a multi-label public suffix', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('bob@mail.acme.co.uk', 1, 10));
      await put(who, newSessionId(), visit('amy@Acme.CO.UK', 2, 10));
      for (const domain of ['acme.co.uk', 'mail.acme.co.uk', 'ACME.co.uk.']) {
        expect(await getOk(who, domain)).toMatchObject({
          accountDomain: 'acme.co.uk',
          totalUsers: 2,
          totalSessions: 2,
        });
      }
    });

    it.each([
      ['a%40acme.com', 'a@acme.com', 'an email address is not a domain'],
      ['Ada%40Acme.com', 'Ada@Acme.com', 'an email address is not a domain'],
      ['https%3A%2F%2Facme.com', 'https://acme.com', 'a URL is not a domain'],
      ['acme.com%2Fpricing', 'acme.com/pricing', 'a URL is not a domain'],
      ['acme.com%3A443', 'acme.com:443', 'a URL is not a domain'],
      ['acme.com%3Fq%3D1', 'acme.com?q=1', 'a URL is not a domain'],
      ['acme%20com', 'acme com', 'a URL is not a domain'],
      ['acme..com', 'acme..com', 'not a valid domain name'],
    ])('answers 422 value_error for %s', async (path, input, reason) => {
      const who = await tenant();
      await put(who, newSessionId(), visit('a@acme.com', 1, 10));
      const res = await get(who, path).expect(422);
      const detail = detailOf(res);
      expect(detail).toHaveLength(1);
      expect(detail[0]).toMatchObject({
        type: 'value_error',
        loc: ['path', 'domain'],
        msg: `Value error, ${reason}`,
        input,
      });
    });

    it('answers 404 for free-mail domains and domains without people', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('joe@gmail.com', 1, 10));
      await put(who, newSessionId(), visit('a@acme.com', 1, 10));
      for (const domain of ['gmail.com', 'GMAIL.com.', 'unknown-domain.com', 'acme.org']) {
        await get(who, domain).expect(404, NOT_FOUND);
      }
    });

    it("answers 404 for another organization's account", async () => {
      const [one, two] = [await tenant(), await tenant()];
      await put(two, newSessionId(), visit('a@acme.com', 1, 10));
      await put(one, newSessionId(), visit('b@beta.io', 1, 10));

      await get(one, 'acme.com').expect(404, NOT_FOUND);
      expect(await getOk(two, 'acme.com')).toMatchObject({ totalUsers: 1 });
      await get(two, 'beta.io').expect(404, NOT_FOUND);
    });
  });

  describe('scopes', () => {
    it('needs accounts:read (403 without it, 401 without a key, both before validation)', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('a@acme.com', 1, 10));
      const noScope = await t.createKey(who.organizationId, ['people:read', 'sessions:read']);
      const onlyAccounts = await t.createKey(who.organizationId, ['accounts:read']);

      await request(t.server)
        .get(`${ACCOUNTS}/acme.com`)
        .set('Authorization', `Bearer ${noScope}`)
        .expect(403, FORBIDDEN);
      await request(t.server)
        .get(`${ACCOUNTS}/a%40acme.com`)
        .set('Authorization', `Bearer ${noScope}`)
        .expect(403, FORBIDDEN);
      await request(t.server).get(`${ACCOUNTS}/acme.com`).expect(401, UNAUTHORIZED);
      await request(t.server).get(`${ACCOUNTS}/a%40acme.com`).expect(401, UNAUTHORIZED);
      const res = await request(t.server).get(`${ACCOUNTS}/acme.com`).set('x-api-key', onlyAccounts).expect(200);
      expect(res.body).toMatchObject({ accountDomain: 'acme.com', totalUsers: 1 });
    });
  });

  describe('rollups follow the sessions', () => {
    it('moves counts with a session that moves to another domain, and deletes an account left without people', async () => {
      const who = await tenant();
      const [s1, s2] = [newSessionId(), newSessionId()];
      await put(
        who,
        s1,
        visit('a@acme.com', 3, 30, {
          bookedStatus: 'booked',
          buyingIntent: 'low',
          qualificationStatus: 'unqualified',
          business: 'Acme',
        }),
      );
      await put(
        who,
        s2,
        visit('b@acme.com', 2, 10, {
          bookedStatus: 'booked',
          buyingIntent: 'high',
          qualificationStatus: 'qualified',
          business: 'Acme',
        }),
      );
      const before = await getOk(who, 'acme.com');
      expect(before).toMatchObject({
        totalUsers: 2,
        totalSessions: 2,
        bookedSessions: 2,
        highIntentUsers: 1,
        qualifiedUsers: 1,
        totalTimeSpentSeconds: 2400,
        lastSeenAt: ago(2, 10),
      });

      await put(
        who,
        s2,
        visit('b@other.com', 2, 10, {
          bookedStatus: 'booked',
          buyingIntent: 'high',
          qualificationStatus: 'qualified',
          business: 'Other',
        }),
      );
      expect(await getOk(who, 'acme.com')).toEqual({
        ...before,
        totalUsers: 1,
        totalSessions: 1,
        bookedSessions: 1,
        highIntentUsers: 0,
        qualifiedUsers: 0,
        totalTimeSpentSeconds: 1800,
        lastSeenAt: ago(3, 30),
        updatedAt: expect.stringMatching(ISO_MS_Z),
      });
      expect(await getOk(who, 'other.com')).toMatchObject({
        totalUsers: 1,
        totalSessions: 1,
        highIntentUsers: 1,
        qualifiedUsers: 1,
        companyName: 'Other',
      });

      await put(who, s1, visit('a@gmail.com', 3, 30, { bookedStatus: 'booked' }));
      await get(who, 'acme.com').expect(404, NOT_FOUND);

      // A later session recreates the account, with a new id.
      await put(who, s1, visit('a@acme.com', 3, 30, { bookedStatus: 'not_booked' }));
      const recreated = await getOk(who, 'acme.com');
      expect(recreated).toMatchObject({ totalUsers: 1, totalSessions: 1, bookedSessions: 0 });
      expect(recreated.id).not.toBe(before.id);
    });

    it('drops a session re-ingested as staging or pending', async () => {
      const who = await tenant();
      const [s1, s2, s3] = [newSessionId(), newSessionId(), newSessionId()];
      await put(who, s1, visit('a@acme.com', 3, 30, { bookedStatus: 'booked' }));
      await put(who, s2, visit('a@acme.com', 2, 10, { bookedStatus: 'booked' }));
      await put(who, s3, visit('b@eu.acme.com', 1, 5, { bookedStatus: 'not_booked' }));
      expect(await getOk(who, 'acme.com')).toMatchObject({
        totalUsers: 2,
        totalSessions: 3,
        bookedSessions: 2,
        totalTimeSpentSeconds: 2700,
        lastSeenAt: ago(1, 5),
      });

      await put(who, s3, visit('b@eu.acme.com', 1, 5, { environment: 'staging' }));
      expect(await getOk(who, 'acme.com')).toMatchObject({
        totalUsers: 1,
        totalSessions: 2,
        bookedSessions: 2,
        totalTimeSpentSeconds: 2400,
        lastSeenAt: ago(2, 10),
      });

      await put(who, s2, visit('a@acme.com', 2, 10, { bookedStatus: 'booked', analysisStatus: 'pending' }));
      expect(await getOk(who, 'acme.com')).toMatchObject({
        totalUsers: 1,
        totalSessions: 1,
        bookedSessions: 1,
        totalTimeSpentSeconds: 1800,
        lastSeenAt: ago(3, 30),
      });

      await put(who, s1, visit('a@acme.com', 3, 30, { environment: 'staging' }));
      await get(who, 'acme.com').expect(404, NOT_FOUND);
    });
  });

  describe('engagement of its Custom Links', () => {
    const list = async (who: Tenant, query = ''): Promise<AccountPage> =>
      (await request(t.server).get(`${ACCOUNTS}${query}`).set('Authorization', `Bearer ${who.key}`).expect(200))
        .body as AccountPage;

    it('counts the links of the account domain as campaign engagement counts them, human and external events only', async () => {
      const who = await tenant();
      await put(who, newSessionId(), visit('a@acme.com', 3, 30));
      await put(who, newSessionId(), visit('b@beta.io', 2, 30));
      await put(who, newSessionId(), visit('c@gamma.io', 1, 30));
      const [byEmail, byDomain, scanned, beta, freeMail] = await createLinks(t.server, who.key, [
        { email: 'x@acme.com' },
        { email: 'y@gmail.com', prospectDomain: 'www.acme.com' },
        { email: 'z@eu.acme.com' },
        { email: 'w@beta.io' },
        { email: 'q@gmail.com' },
      ]);
      const [s1, s2, s3] = [newSessionId(), newSessionId(), newSessionId()];
      await send(who, [
        // byEmail: a persistent visitor, a session that starts and engages, a lead.
        event(byEmail, 'page_view', 1, { visitorId: 'v-1', pageViewId: 'pv-1' }),
        event(byEmail, 'session_started', 2, { sessionId: s1 }),
        event(byEmail, 'session_engaged', 3, { sessionId: s1 }),
        event(byEmail, 'lead_submitted', 4, { sessionId: s1 }),
        // byDomain: an open, an ephemeral page view, a meeting booked (lower-funnel evidence: engaged).
        event(byDomain, 'open', 5),
        event(byDomain, 'page_view', 6, { pageViewId: 'pv-2' }),
        event(byDomain, 'meeting_booked', 7, { sessionId: s2 }),
        // scanned: a bot's open and a load of the organization's own people, both later than the rest.
        event(scanned, 'open', 20, { bot: true }),
        event(scanned, 'page_view', 21, { visitorId: 'v-3', pageViewId: 'pv-3', sessionId: s3, internal: true }),
        event(scanned, 'session_started', 22, { sessionId: s3, internal: true }),
        // beta: opened only.
        event(beta, 'open', 9),
        // A link of no account.
        event(freeMail, 'page_view', 30, { visitorId: 'v-4' }),
      ]);

      expect((await getOk(who, 'acme.com')).engagement).toEqual({
        linkCount: 3,
        openedLinkCount: 2,
        engagedLinkCount: 2,
        leadSubmittedLinkCount: 1,
        meetingBookedLinkCount: 1,
        uniqueVisitorCount: 2, // v-1 and the ephemeral pv-2; not the internal v-3
        sessionCount: 2, // s1 and s2; not the internal s3
        lastActivityAt: at(7), // not the bot's 20 nor the internal 21, 22
      });
      expect((await getOk(who, 'beta.io')).engagement).toEqual({
        ...NO_ENGAGEMENT,
        linkCount: 1,
        openedLinkCount: 1,
        lastActivityAt: at(9),
      });
      expect((await getOk(who, 'gamma.io')).engagement).toEqual(NO_ENGAGEMENT);

      // Every item of the list carries the same engagement as its account's GET, on every page.
      const first = await list(who, '?limit=2');
      const rest = await list(who, `?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`);
      const listed = [...first.accounts, ...rest.accounts];
      expect(listed.map((a) => a.accountDomain).sort()).toEqual(['acme.com', 'beta.io', 'gamma.io']);
      for (const account of listed) expect(account).toEqual(await getOk(who, account.accountDomain));
    });

    it("follows a link's email and prospectDomain, and counts no other organization's links", async () => {
      const [who, other] = [await tenant(), await tenant()];
      await put(who, newSessionId(), visit('a@acme.com', 2, 30));
      await put(who, newSessionId(), visit('b@beta.io', 1, 30));
      await put(other, newSessionId(), visit('a@acme.com', 2, 30));
      const [mine] = await createLinks(t.server, who.key, [{ email: 'x@acme.com' }]);
      const [theirs] = await createLinks(t.server, other.key, [{ email: 'x@acme.com' }]);
      await send(who, [event(mine, 'open', 1)]);
      await send(other, [event(theirs, 'page_view', 2, { visitorId: 'v-9' }), event(theirs, 'lead_submitted', 3)]);

      const opened = { ...NO_ENGAGEMENT, linkCount: 1, openedLinkCount: 1, lastActivityAt: at(1) };
      expect((await getOk(who, 'acme.com')).engagement).toEqual(opened);
      expect((await getOk(other, 'acme.com')).engagement).toMatchObject({ linkCount: 1, leadSubmittedLinkCount: 1 });

      await request(t.server)
        .patch(`/api/v1/custom-links/${mine.id}`)
        .set('x-api-key', who.key)
        .send({ email: 'x@gmail.com' })
        .expect(200);
      expect((await getOk(who, 'acme.com')).engagement).toEqual(NO_ENGAGEMENT);
      await request(t.server)
        .patch(`/api/v1/custom-links/${mine.id}`)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', `acct-${process.pid}-${++seq}`)
        .send({ prospectDomain: 'beta.io' })
        .expect(200);
      expect((await getOk(who, 'beta.io')).engagement).toEqual(opened);
    });
  });

  describe('activity', () => {
    const activity = (who: Tenant, domain: string, query = '') =>
      request(t.server).get(`${ACCOUNTS}/${domain}/activity${query}`).set('x-api-key', who.key);
    const activityOk = async (who: Tenant, domain: string, query = ''): Promise<AccountActivityPage> =>
      (await activity(who, domain, query).expect(200)).body as AccountActivityPage;
    /** Every page from the first, `limit` at a time, following nextCursor. */
    const walk = async (who: Tenant, domain: string, limit: number) => {
      const pages: AccountActivityPage[] = [await activityOk(who, domain, `?limit=${limit}`)];
      for (let next = pages[0].nextCursor; next !== null; next = pages[pages.length - 1].nextCursor)
        pages.push(await activityOk(who, domain, `?limit=${limit}&cursor=${encodeURIComponent(next)}`));
      return pages;
    };
    const session = (id: string, minute: number, personId: string, customLinkId: string | null = null) =>
      ({
        kind: 'session',
        occurredAt: at(minute),
        sessionId: id,
        personId,
        customLinkId,
        eventId: null,
        type: null,
      }) as const;
    const linkEvent = (e: EventInput, personId: string | null = null) => ({
      kind: 'event',
      occurredAt: e.occurredAt,
      sessionId: e.sessionId ?? null,
      personId,
      customLinkId: e.customLinkId ?? null,
      eventId: e.eventId,
      type: e.type,
    });

    /**
     * An account with two people and two links, and what must stay out of its activity: a staging and
     * a pending session of its person, a person and a link of another account, bot and internal events,
     * and the same account in another organization.
     */
    async function scenario() {
      const [who, other] = [await tenant(), await tenant()];
      const [viaEmail, viaDomain, elsewhere] = await createLinks(t.server, who.key, [
        { email: 'x@acme.com' },
        { email: 'y@gmail.com', prospectDomain: 'acme.com' },
        { email: 'z@other.com' },
      ]);
      const [s1, s2, s3, staging, pending, outside] = Array.from({ length: 6 }, newSessionId);
      const start = (minute: number, email: string, over: Record<string, unknown> = {}) =>
        sessionBody({ email, startTime: at(minute), endTime: at(minute + 5), ...over });
      const a = await put(who, s1, start(10, 'a@acme.com'));
      await put(who, s2, start(30, 'a@acme.com', { customLinkId: viaDomain.id }));
      const b = await put(who, s3, start(20, 'b@eu.acme.com'));
      await put(who, staging, start(40, 'a@acme.com', { environment: 'staging' }));
      await put(who, pending, start(41, 'a@acme.com', { analysisStatus: 'pending' }));
      await put(who, outside, start(42, 'o@other.com'));
      const unknownSession = newSessionId();
      const kept = {
        open: event(viaEmail, 'open', 5),
        view: event(viaEmail, 'page_view', 11, { sessionId: s1, visitorId: 'v-1', pageViewId: 'pv-1' }),
        started: event(viaDomain, 'session_started', 30, { sessionId: s2, eventId: `${s2}-b` }),
        load: event(viaDomain, 'page_view', 30, { pageViewId: 'pv-2', eventId: `${s2}-a` }),
        lead: event(viaDomain, 'lead_submitted', 35, { sessionId: unknownSession }),
      };
      await send(who, [
        ...Object.values(kept),
        event(viaEmail, 'open', 50, { bot: true }),
        event(viaEmail, 'page_view', 51, { visitorId: 'v-2', internal: true, sessionId: s1 }),
        event(elsewhere, 'page_view', 45, { visitorId: 'v-3' }),
      ]);
      // The same account in another organization, with a session and a link event later than all of the above.
      await put(other, newSessionId(), start(60, 'a@acme.com'));
      const [theirs] = await createLinks(t.server, other.key, [{ email: 'x@acme.com' }]);
      await send(other, [event(theirs, 'page_view', 61, { visitorId: 'v-9' })]);

      const expected = [
        linkEvent(kept.lead),
        session(s2, 30, a.personId as string, viaDomain.id),
        linkEvent(kept.started, a.personId),
        linkEvent(kept.load),
        session(s3, 20, b.personId as string),
        linkEvent(kept.view, a.personId),
        // Its link: the one its earliest tracked event came through (the session detail's customLinkId).
        session(s1, 10, a.personId as string, viaEmail.id),
        linkEvent(kept.open),
      ];
      return { who, other, expected };
    }

    it("lists the account's people's visible sessions and its links' human, external events, newest first", async () => {
      const { who, expected } = await scenario();
      const page = await activityOk(who, 'acme.com');
      expect(page).toEqual({ activity: expected, limit: 50, nextCursor: null });
      // Any spelling of the domain is the same account.
      expect(await activityOk(who, 'Sales.ACME.com.')).toEqual(page);
    });

    it('pages by cursor to the end without a skip or a repeat, whatever the limit', async () => {
      const { who, expected } = await scenario();
      for (const limit of [1, 3, 7, 8]) {
        const pages = await walk(who, 'acme.com', limit);
        expect(pages.map((p) => p.activity.length)).toEqual(
          Array.from({ length: Math.ceil(expected.length / limit) }, (_, i) =>
            Math.min(limit, expected.length - i * limit),
          ),
        );
        expect(pages.flatMap((p) => p.activity)).toEqual(expected);
        expect(pages.every((p) => p.limit === limit)).toBe(true);
      }
      // The limit may change from page to page.
      const first = await activityOk(who, 'acme.com', '?limit=2');
      const rest = await activityOk(who, 'acme.com', `?limit=10&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect([...first.activity, ...rest.activity]).toEqual(expected);
      expect(rest.nextCursor).toBeNull();
    });

    it('keeps a walk whole when newer activity arrives during it', async () => {
      const { who, expected } = await scenario();
      const first = await activityOk(who, 'acme.com', '?limit=4');
      await put(who, newSessionId(), sessionBody({ email: 'a@acme.com', startTime: at(55), endTime: at(56) }));
      const [link] = await createLinks(t.server, who.key, [{ email: 'n@acme.com' }]);
      await send(who, [event(link, 'open', 56)]);
      const rest = await activityOk(who, 'acme.com', `?limit=50&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect([...first.activity, ...rest.activity]).toEqual(expected);
      const fresh = (await activityOk(who, 'acme.com')).activity.map((item: AccountActivityItem) => item.occurredAt);
      expect(fresh.slice(0, 2)).toEqual([at(56), at(55)]);
    });

    it("answers 404 for an unknown domain and another organization's account, 422 for an email or URL", async () => {
      const { who, other } = await scenario();
      await activity(who, 'unknown-domain.com').expect(404, NOT_FOUND);
      await activity(who, 'gmail.com').expect(404, NOT_FOUND);
      const loner = await tenant();
      await activity(loner, 'acme.com').expect(404, NOT_FOUND);
      expect(
        (await activityOk(other, 'acme.com')).activity.map((item: AccountActivityItem) => item.occurredAt),
      ).toEqual([at(61), at(60)]);
      const res = await activity(who, 'a%40acme.com').expect(422);
      expect(detailOf(res)).toEqual([
        expect.objectContaining({
          type: 'value_error',
          loc: ['path', 'domain'],
          msg: 'Value error, an email address is not a domain',
        }),
      ]);
    });

    it('answers 422 for a bad limit, an edited cursor and a cursor of another list, account or organization', async () => {
      const { who, other } = await scenario();
      const issue = async (domain: string, query: string, as = who) =>
        detailOf(await activity(as, domain, query).expect(422));
      expect(await issue('acme.com', '?limit=0')).toEqual([
        expect.objectContaining({ type: 'greater_than_equal', loc: ['query', 'limit'], ctx: { ge: 1 } }),
      ]);
      expect(await issue('acme.com', '?limit=201')).toEqual([
        expect.objectContaining({ type: 'less_than_equal', loc: ['query', 'limit'], ctx: { le: 200 } }),
      ]);
      expect(await issue('acme.com', '?limit=ten')).toEqual([
        expect.objectContaining({ type: 'int_parsing', loc: ['query', 'limit'] }),
      ]);
      const { nextCursor } = await activityOk(who, 'acme.com', '?limit=2');
      const cursor = nextCursor as string;
      const invalid = (input: string) => [
        {
          type: 'value_error',
          loc: ['query', 'cursor'],
          msg: 'Value error, the cursor is not one this list returned for these parameters',
          input,
          ctx: { error: 'the cursor is not one this list returned for these parameters' },
        },
      ];
      const edited = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
      expect(await issue('acme.com', `?cursor=${encodeURIComponent(edited)}`)).toEqual(invalid(edited));
      await put(who, newSessionId(), sessionBody({ email: 'p@beta.io' }));
      expect(await issue('beta.io', `?cursor=${encodeURIComponent(cursor)}`)).toEqual(invalid(cursor));
      expect(await issue('acme.com', `?cursor=${encodeURIComponent(cursor)}`, other)).toEqual(invalid(cursor));
      const accounts = (await request(t.server).get(`${ACCOUNTS}?limit=1`).set('x-api-key', who.key).expect(200))
        .body as AccountPage;
      const foreign = accounts.nextCursor as string;
      expect(await issue('acme.com', `?cursor=${encodeURIComponent(foreign)}`)).toEqual(invalid(foreign));
      // Validation comes before the lookup: a bad cursor on an unknown account is a 422.
      expect(await issue('unknown-domain.com', `?cursor=${encodeURIComponent(cursor)}`)).toEqual(invalid(cursor));
      // A cursor works for any spelling of its account's domain.
      await activity(who, 'ACME.com.', `?cursor=${encodeURIComponent(cursor)}`).expect(200);
    });

    it('needs accounts:read', async () => {
      const { who } = await scenario();
      const noScope = await t.createKey(who.organizationId, ['people:read', 'sessions:read', 'custom_links:read']);
      await request(t.server).get(`${ACCOUNTS}/acme.com/activity`).set('x-api-key', noScope).expect(403, FORBIDDEN);
      await request(t.server).get(`${ACCOUNTS}/acme.com/activity`).expect(401, UNAUTHORIZED);
      const reader = await t.createKey(who.organizationId, ['accounts:read']);
      await request(t.server).get(`${ACCOUNTS}/acme.com/activity`).set('x-api-key', reader).expect(200);
    });
  });
});
