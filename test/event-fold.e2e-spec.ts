import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { EventFold } from '../src/modules/engagement';
import {
  countsAsEngagement,
  engagementOf,
  INGESTED_EVENT_TYPES,
  statsOf,
  storedFormOf,
  type EngagementEvent,
  type EventType,
} from '../src/modules/engagement/rules/engagement-rollup';
import type { Job, JobEnvelope, JobItemPage, Link } from './support/api-types';
import { TRANSACTION_WRITING, WRITING_TRANSACTIONS } from './support/backends';
import { folded } from './support/fold';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startWorker } from './support/worker-process';

/**
 * The fold is exactly once (issue 32 point 2, docs/api.md §6.4). Events are appended while no folder
 * runs; then real worker processes fold them, two at a time, while the test kills one with SIGKILL
 * in the middle of a fold (a fold transaction that has written) and starts another, several times.
 * Afterwards every link equals the pure rules over its accepted events, every event is counted once
 * in the hourly aggregates and the organization's fold count, and each webhook event was recorded
 * exactly once. In-process folders racing on one organization agree too.
 */
jest.setTimeout(240_000);

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
/** Every event type, opens twice as often (so human opens and their webhook events abound). */
const TYPES: EventType[] = ['open', ...INGESTED_EVENT_TYPES];
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const KILLS = 4;

interface Posted extends EngagementEvent {
  linkId: string;
  internal: boolean;
}

/** A deterministic stream of events over `links` (bots, internal, sessions, visitors, page views). */
function eventsFor(prefix: string, links: string[], n: number, seed: number): { body: object; event: Posted }[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  return Array.from({ length: n }, (_, i) => {
    const type = pick(TYPES);
    const linkId = pick(links);
    const bot = next() < 0.1;
    const internal = !bot && next() < 0.05;
    const sessionId =
      type === 'open' || next() < 0.2
        ? null
        : `0190b000-0000-7000-8000-${String(Math.floor(next() * 40)).padStart(12, '0')}`;
    const visitorId = next() < 0.6 ? `v${Math.floor(next() * 50)}` : null;
    const pageViewId = next() < 0.7 ? `pv${Math.floor(next() * 400)}` : null;
    const occurredAt = new Date(Date.UTC(2026, 9, 1) + Math.floor(next() * 20 * 86_400) * 1000);
    const eventId = `${prefix}-${i}`;
    const body = {
      eventId,
      type,
      customLinkId: linkId,
      occurredAt: occurredAt.toISOString(),
      userAgent: bot ? GOOGLEBOT : CHROME,
      ...(sessionId ? { sessionId } : {}),
      ...(visitorId ? { visitorId } : {}),
      ...(pageViewId ? { pageViewId } : {}),
      ...(internal ? { internal: true } : {}),
    };
    const botReason = bot ? ('user_agent' as const) : null;
    return {
      body,
      event: { eventId, type, linkId, occurredAt, sessionId, visitorId, pageViewId, bot, botReason, internal },
    };
  });
}

describe('the fold, exactly once', () => {
  let t: TestApp;
  let db: DataSource;
  const workers: ChildProcess[] = [];
  const queuePrefix = `bull-fold-${randomUUID()}`;
  const worker = async () => {
    const port = await freePort();
    const child = startWorker(port, { QUEUE_PREFIX: queuePrefix });
    workers.push(child);
    return { child, port };
  };

  beforeAll(async () => {
    assertBuilt();
    // The API role runs no folder: what is posted waits until a worker process folds it.
    t = await createTestApp({
      APP_ROLE: 'api',
      QUEUE_PREFIX: queuePrefix,
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
    });
    await t.app.listen(0);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    for (const child of workers) child.kill('SIGKILL');
    await t.close();
  });

  const get = (who: Tenant, path: string) => request(t.server).get(path).set('x-api-key', who.key).expect(200);

  async function createLinks(who: Tenant, n: number): Promise<string[]> {
    const links = Array.from({ length: n }, (_, i) => ({
      firstName: `P${i}`,
      shareThumbnailUrl: 'https://cdn.example.com/card.png',
    }));
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await eventually(async () => ((await get(who, `${JOBS}/${jobId}`)).body as Job).status === 'completed', 60_000);
    const items = ((await get(who, `${JOBS}/${jobId}/items?limit=200`)).body as JobItemPage).items;
    return items.map((item) => item.customLinkId as string);
  }

  /** Posts events in batches of 500; returns the events accepted (each eventId once). */
  async function post(who: Tenant, stream: { body: object; event: Posted }[]): Promise<Posted[]> {
    for (let i = 0; i < stream.length; i += 500) {
      const res = await request(t.server)
        .post('/api/v1/events')
        .set('x-api-key', who.key)
        .send({ events: stream.slice(i, i + 500).map((s) => s.body) })
        .expect(202);
      expect((res.body as { rejected: unknown[] }).rejected).toEqual([]);
    }
    return stream.map((s) => s.event);
  }

  /** A link endpoint listening to every link event, so that the fold records them (nothing need receive them). */
  async function listen(who: Tenant): Promise<void> {
    await db.query(
      `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, description, secret)
       VALUES ($1, $2, 'https://hooks.example.com/fold', $3, 'fold test', 'whsec_fold_test_secret_0123456789')`,
      [
        who.organizationId,
        randomUUID(),
        [
          'custom_link.opened',
          'custom_link.session_started',
          'custom_link.engaged',
          'custom_link.lead',
          'custom_link.meeting_booked',
        ],
      ],
    );
  }

  /** Every link against the pure rules over its events; the hours, the fold count and the webhook events. */
  async function expectExact(who: Tenant, linkIds: string[], events: Posted[]): Promise<void> {
    const expectedMessages: Record<string, number> = {};
    const count = (type: string) => (expectedMessages[type] = (expectedMessages[type] ?? 0) + 1);
    for (const linkId of linkIds) {
      const mine = events.filter((e) => e.linkId === linkId);
      const expected = engagementOf(storedFormOf(statsOf(mine)));
      const { asOf, ...actual } = ((await get(who, `${LINKS}/${linkId}`)).body as Link).engagement;
      expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
      expect({ linkId, ...actual }).toEqual({ linkId, ...expected });
      for (const e of mine) if (e.type === 'open' && countsAsEngagement(e)) count('custom_link.opened');
      if (expected.stage === 'started' || expected.stage === 'engaged') count('custom_link.session_started');
      if (expected.stage === 'engaged') count('custom_link.engaged');
      if (expected.leadSubmitted) count('custom_link.lead');
      if (expected.meetingBooked) count('custom_link.meeting_booked');
    }
    const [fold]: { folded_events: string }[] = await db.query(
      `SELECT folded_events FROM engagement_folds WHERE organization_id = $1`,
      [who.organizationId],
    );
    expect(Number(fold.folded_events)).toBe(events.length);
    const [hours]: { events: number }[] = await db.query(
      `SELECT sum(events)::int AS events FROM link_event_hours WHERE organization_id = $1`,
      [who.organizationId],
    );
    expect(hours.events).toBe(events.length);
    const messages: { event_type: string; copies: number; distinct_causes: number }[] = await db.query(
      `SELECT event_type, count(*)::int AS copies,
              count(DISTINCT (body::jsonb->'data'->>'id') || ':' || (body::jsonb->'data'->>'eventId'))::int AS distinct_causes
         FROM webhook_messages WHERE organization_id = $1 GROUP BY event_type`,
      [who.organizationId],
    );
    expect(Object.fromEntries(messages.map((m) => [m.event_type, m.copies]))).toEqual(expectedMessages);
    for (const m of messages)
      expect({ type: m.event_type, copies: m.distinct_causes }).toEqual({ type: m.event_type, copies: m.copies });
  }

  /** Waits for a fold transaction that has written (the API is idle: any writer is a folder); returns its backend. */
  async function foldWriting(): Promise<number> {
    let writer = 0;
    await eventually(
      async () => {
        const rows: { id: string }[] = await db.query(WRITING_TRANSACTIONS);
        writer = Number(rows[0]?.id ?? 0);
        return writer !== 0;
      },
      60_000,
      5,
    );
    return writer;
  }

  /** The backend's transaction ended (its client died, so it rolled back). */
  const ended = (pid: number) =>
    eventually(async () => {
      const rows: unknown[] = await db.query(TRANSACTION_WRITING, [pid]);
      return rows.length === 0;
    });

  it('worker processes killed mid-fold, two folding at once, count every event once and record each webhook event once', async () => {
    const tenants = [await t.createTenant(), await t.createTenant()];
    const linkmaker = await worker();
    const links = [await createLinks(tenants[0], 15), await createLinks(tenants[1], 15)];
    linkmaker.child.kill('SIGKILL');
    await exitCodeOf(linkmaker.child);
    for (const who of tenants) await listen(who);

    const accepted: Posted[][] = [];
    for (const [i, who] of tenants.entries()) {
      const stream = eventsFor(`fold-${i}`, links[i], 12_000, 7 + i);
      // A repeated eventId in a later batch is a duplicate: it must not count twice either.
      accepted.push(await post(who, [...stream, ...stream.slice(0, 300)]).then((all) => all.slice(0, stream.length)));
    }
    const [waiting]: { batches: number }[] = await db.query(`SELECT count(*)::int AS batches FROM link_event_batches`);
    expect(waiting.batches).toBe(48);

    let live = [await worker(), await worker()];
    for (let kill = 0; kill < KILLS; kill++) {
      // Mid-fold: a folder's transaction has written. Both folders die; the writing backend's
      // transaction ends with its client, rolled back; two new folders take over.
      const writer = await foldWriting();
      for (const w of live) w.child.kill('SIGKILL');
      await Promise.all(live.map((w) => exitCodeOf(w.child)));
      await ended(writer);
      const [left]: { batches: number }[] = await db.query(`SELECT count(*)::int AS batches FROM link_event_batches`);
      expect(left.batches).toBeGreaterThan(0);
      live = [await worker(), await worker()];
    }
    for (const who of tenants) await folded(t.app, who.organizationId, 120_000);
    for (const [i, who] of tenants.entries()) await expectExact(who, links[i], accepted[i]);

    // An idle service folds a new event within a second, and says so in its metrics.
    const [who] = tenants;
    const started = Date.now();
    await post(who, eventsFor('idle', [links[0][0]], 1, 99));
    await folded(t.app, who.organizationId, 5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    const metrics = await Promise.all(
      live.map(async (w) => (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text()),
    );
    expect(metrics.join('\n')).toMatch(/^engagement_fold_lag_seconds_count \d+/m);
    expect(metrics.join('\n')).toMatch(/^engagement_fold_backlog_seconds 0$/m);
    for (const w of live) w.child.kill('SIGKILL');
  });

  it('folders racing on one organization in one process fold each batch once', async () => {
    const who = await t.createTenant();
    const linkmaker = await worker();
    const linkIds = await createLinks(who, 10);
    linkmaker.child.kill('SIGKILL');
    await exitCodeOf(linkmaker.child);
    await listen(who);
    const events = await post(who, eventsFor('race', linkIds, 6_000, 3));
    const answered = Date.now();
    // Appended, not folded: asOf stays before the events' acceptance, and they are not counted yet.
    const waiting = ((await get(who, `${LINKS}/${linkIds[0]}`)).body as Link).engagement;
    expect(Date.parse(waiting.asOf)).toBeLessThan(answered);
    expect(waiting.lastActivityAt).toBeNull();
    const fold = t.app.get(EventFold);
    let busy = 0;
    const folder = async () => {
      for (;;) {
        const outcome = await fold.foldOnce(who.organizationId);
        if (outcome.busy) busy++;
        else if (outcome.batches === 0) return;
      }
    };
    await Promise.all([folder(), folder(), folder(), folder()]);
    expect(busy).toBeGreaterThan(0);
    const done = ((await get(who, `${LINKS}/${linkIds[0]}`)).body as Link).engagement;
    expect(Date.parse(done.asOf)).toBeGreaterThanOrEqual(answered);
    expect(done.lastActivityAt).not.toBeNull();
    await expectExact(who, linkIds, events);
  });
});
