import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { botReasonOf } from '../src/modules/engagement/rules/bot-detection';
import {
  engagementOf,
  statsOf,
  storedFormOf,
  type EngagementEvent,
  type EventType,
} from '../src/modules/engagement/rules/engagement-rollup';
import type { EventsAnswer, Job, JobEnvelope, JobItemPage, Link, LinkEngagement } from './support/api-types';
import { folded } from './support/fold';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * Link rollups through HTTP against the pure rules (docs/api.md §6.4): random event sets posted in random
 * batch splits and orders, some batches in parallel. After every round no link's engagement moves
 * backwards; at the end each link equals engagementOf(storedFormOf(statsOf(its events))).
 * ENGAGEMENT_RUNS changes the number of runs.
 */
jest.setTimeout(600_000);

const RUNS = Number(process.env.ENGAGEMENT_RUNS ?? 20);
const PUBLIC_BASE_URL = 'https://go.engprop.test';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const TYPES: EventType[] = [
  'open',
  'page_view',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
];
const SESSION_POOL = [
  '0190b000-0000-7000-8000-00000000000a',
  '0190b000-0000-7000-8000-00000000000b',
  '0190b000-0000-7000-8000-00000000000c',
];
const RANK: Record<LinkEngagement['stage'], number> = { not_opened: 0, opened: 1, started: 2, engaged: 3 };
const COUNTS: (keyof LinkEngagement)[] = [
  'pageViewCount',
  'loadCount',
  'uniqueVisitorCount',
  'persistentUniqueVisitorCount',
  'ephemeralPageViewCount',
  'sessionCount',
  'startedSessionCount',
  'engagedSessionCount',
];
const FIRSTS: (keyof LinkEngagement)[] = [
  'firstOpenedAt',
  'firstStartedAt',
  'firstEngagedAt',
  'firstLeadSubmittedAt',
  'firstMeetingClickedAt',
  'firstMeetingBookedAt',
];
const FLAGS: (keyof LinkEngagement)[] = ['openObserved', 'leadSubmitted', 'meetingClicked', 'meetingBooked'];

interface Draft {
  link: number;
  bySlug: boolean;
  type: EventType;
  minute: number;
  pageViewId: string | null;
  visitorId: string | null;
  session: number | null;
  bot: boolean | null;
  userAgent: string | null;
}

const draft = fc.record({
  link: fc.nat({ max: 2 }),
  bySlug: fc.boolean(),
  type: fc.constantFrom(...TYPES),
  minute: fc.integer({ min: 0, max: 5 }),
  pageViewId: fc.constantFrom(null, 'p1', 'p2', 'p3'),
  visitorId: fc.constantFrom(null, 'v1', 'v2'),
  session: fc.constantFrom(null, 0, 1, 2),
  bot: fc.constantFrom(null, null, false, true),
  userAgent: fc.constantFrom(null, null, CHROME, GOOGLEBOT),
});

/** A scenario: 2-3 links, events (with identical duplicates), a shuffled order, batch cuts and which rounds run in parallel. */
const scenario = fc
  .record({
    linkCount: fc.integer({ min: 2, max: 3 }),
    drafts: fc.array(draft, { minLength: 1, maxLength: 40 }),
    dupes: fc.array(fc.nat(), { maxLength: 8 }),
  })
  .chain(({ linkCount, drafts, dupes }) => {
    const withDupes = [
      ...drafts.map((d, i) => ({ ...d, link: d.link % linkCount, id: i })),
      ...dupes.map((n) => ({
        ...drafts[n % drafts.length],
        link: drafts[n % drafts.length].link % linkCount,
        id: n % drafts.length,
      })),
    ];
    return fc.record({
      linkCount: fc.constant(linkCount),
      events: fc.shuffledSubarray(withDupes, { minLength: withDupes.length, maxLength: withDupes.length }),
      cuts: fc.array(fc.nat(), { maxLength: 8 }),
      parallel: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    });
  });

/** A batch event's bot verdict (docs/api.md §6.3): its User-Agent's reason, else `bot: true` is the tracker's User-Agent verdict. */
function botOf(d: { bot: boolean | null; userAgent: string | null }): Pick<EngagementEvent, 'bot' | 'botReason'> {
  const botReason =
    (d.userAgent !== null ? botReasonOf({ userAgent: d.userAgent }) : null) ?? (d.bot === true ? 'user_agent' : null);
  return { bot: botReason !== null, botReason };
}

describe('engagement rollups (property, through HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL,
    });
  });
  afterAll(() => t.close());

  const get = (who: Tenant, path: string) => request(t.server).get(path).set('x-api-key', who.key);

  async function createLinks(who: Tenant, n: number): Promise<{ id: string; slug: string }[]> {
    const links = Array.from({ length: n }, (_, i) => ({
      firstName: `P${i}`,
      company: 'Co',
      shareThumbnailUrl: 'https://cdn.example.com/c.png',
    }));
    const res = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await eventually(
      async () =>
        ((await get(who, `/api/v1/custom-link-jobs/${jobId}`).expect(200)).body as Job).status === 'completed',
      30000,
    );
    const items = ((await get(who, `/api/v1/custom-link-jobs/${jobId}/items`).expect(200)).body as JobItemPage).items;
    return Promise.all(
      items.map(async (i) => {
        const link = (await get(who, `/api/v1/custom-links/${i.customLinkId}`).expect(200)).body as Link;
        return { id: link.id, slug: link.url.slice(`${PUBLIC_BASE_URL}/l/`.length) };
      }),
    );
  }

  function assertNoRegression(before: LinkEngagement, after: LinkEngagement, context: string): void {
    for (const key of COUNTS)
      expect({ context, key, ok: (after[key] as number) >= (before[key] as number) }).toEqual({
        context,
        key,
        ok: true,
      });
    expect({ context, stage: RANK[after.stage] >= RANK[before.stage] }).toEqual({
      context,
      stage: true,
    });
    for (const key of FIRSTS) {
      if (before[key] !== null)
        expect({
          context,
          key,
          ok: after[key] !== null && Date.parse(after[key] as string) <= Date.parse(before[key] as string),
        }).toEqual({ context, key, ok: true });
    }
    for (const key of FLAGS)
      if (before[key] === true) expect({ context, key, value: after[key] }).toEqual({ context, key, value: true });
    if (before.lastActivityAt !== null)
      expect(Date.parse(after.lastActivityAt as string)).toBeGreaterThanOrEqual(
        Date.parse(before.lastActivityAt as string),
      );
  }

  it(`equals the pure rollup for every link after random batches (${RUNS} runs), never moving backwards`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ linkCount, events, cuts, parallel }) => {
        run += 1;
        const who = await t.createTenant();
        const links = await createLinks(who, linkCount);
        const prefix = `r${run}-`;
        const occurred = (minute: number) => new Date(Date.UTC(2026, 4, 1, 12, minute)).toISOString();
        const body = (d: Draft & { id: number }) => ({
          // Mixed case so that equal-time ties are decided by byte order.
          eventId: `${prefix}${d.id % 2 === 0 ? 'E' : 'e'}${d.id}`,
          type: d.type,
          ...(d.bySlug ? { slug: links[d.link].slug } : { customLinkId: links[d.link].id }),
          occurredAt: occurred(d.minute),
          ...(d.pageViewId ? { pageViewId: d.pageViewId } : {}),
          ...(d.visitorId ? { visitorId: d.visitorId } : {}),
          ...(d.session !== null ? { sessionId: SESSION_POOL[d.session] } : {}),
          ...(d.bot !== null ? { bot: d.bot } : {}),
          ...(d.userAgent ? { userAgent: d.userAgent } : {}),
        });
        const pure = (d: Draft & { id: number }): EngagementEvent => ({
          eventId: `${prefix}${d.id % 2 === 0 ? 'E' : 'e'}${d.id}`,
          type: d.type,
          occurredAt: new Date(occurred(d.minute)),
          pageViewId: d.pageViewId,
          visitorId: d.visitorId,
          sessionId: d.session !== null ? SESSION_POOL[d.session] : null,
          ...botOf(d),
        });

        // Batches from the cut points; consecutive batches flagged parallel are sent together.
        const points = [...new Set(cuts.map((c) => c % (events.length + 1)))].sort((a, b) => a - b);
        const batches: (typeof events)[] = [];
        let from = 0;
        for (const p of [...points, events.length]) {
          if (p > from) batches.push(events.slice(from, p));
          from = p;
        }
        const rounds: (typeof events)[][] = [];
        batches.forEach((batch, i) => {
          if (i > 0 && parallel[i % parallel.length]) rounds[rounds.length - 1].push(batch);
          else rounds.push([batch]);
        });

        const snapshot = async () =>
          Promise.all(
            links.map(
              async (l) => ((await get(who, `/api/v1/custom-links/${l.id}`).expect(200)).body as Link).engagement,
            ),
          );
        let previous = await snapshot();
        let accepted = 0;
        let duplicates = 0;
        for (const [r, round] of rounds.entries()) {
          const replies = await Promise.all(
            round.map(async (batch) => {
              const res = await request(t.server)
                .post('/api/v1/events')
                .set('x-api-key', who.key)
                .send({ events: batch.map(body) });
              expect(res.status).toBe(202);
              return res.body as EventsAnswer;
            }),
          );
          for (const reply of replies) {
            expect(reply.rejected).toEqual([]);
            accepted += reply.accepted;
            duplicates += reply.duplicates;
          }
          // The round's events are appended to the log: read once the app's workers folded them.
          await folded(t.app, who.organizationId);
          const next = await snapshot();
          next.forEach((e, i) => assertNoRegression(previous[i], e, `run ${run} round ${r} link ${i}`));
          previous = next;
        }
        expect(accepted).toBe(new Set(events.map((e) => e.id)).size);
        expect(accepted + duplicates).toBe(events.length);

        links.forEach((_, i) => {
          const expected = engagementOf(storedFormOf(statsOf(events.filter((e) => e.link === i).map(pure))));
          // asOf, the read's own instant, is no part of the rollup.
          const { asOf, ...engagement } = previous[i];
          expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
          expect({ link: i, engagement }).toEqual({ link: i, engagement: expected });
        });
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  });
});
