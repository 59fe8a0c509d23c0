import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import request from 'supertest';
import { seededRandom } from '../src/common/seeded-random';
import { AnalyticsRepository, type AnalyticsSource } from '../src/modules/engagement/analytics.repository';
import {
  ANALYTICS_GROUPINGS,
  ANALYTICS_METRICS,
  DISTINCT_METRICS,
  type AnalyticsGrouping,
  type AnalyticsMetric,
} from '../src/modules/engagement/rules/analytics';
import { INGESTED_EVENT_TYPES } from '../src/modules/engagement/rules/engagement-rollup';
import { LINK_DERIVED_ROWS } from './support/aggregates';
import { foldNow } from './support/fold';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 33 points 1 and 2: GET /api/v1/analytics answers one question (metrics × one grouping over a
 * range, filtered, in a time zone), and every figure equals a recount over the raw events.
 */
jest.setTimeout(180_000);

const ANALYTICS = '/api/v1/analytics';
const METRICS = ANALYTICS_METRICS;
/** The metrics the fold's aggregates can answer (they count events). */
const COUNTED = METRICS.filter((metric) => !DISTINCT_METRICS.has(metric));
type Metric = AnalyticsMetric;
const DIMENSIONS = ANALYTICS_GROUPINGS.filter((grouping) => grouping !== 'time');
type Dimension = Exclude<AnalyticsGrouping, 'time'>;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The events span both 2026 spring changes: New York on 8 March, Berlin on 29 March. */
const SPAN_START = Date.parse('2026-03-05T00:00:00Z');
const SPAN_END = Date.parse('2026-04-02T00:00:00Z');

/** A stored event as the recount reads it, with its link's campaign and account domain. */
interface RawEvent {
  link: string;
  campaign: string | null;
  account: string | null;
  type: string;
  at: Date;
  bot: boolean;
  internal: boolean;
  visitor_id: string | null;
  page_view_id: string | null;
  session_id: string | null;
  country: string | null;
  device_type: string | null;
  browser: string | null;
  os: string | null;
  referrer_domain: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
}

type Figures = Partial<Record<Metric, number>>;
interface Answer {
  metrics: Metric[];
  groupBy: string;
  interval: string | null;
  timezone: string;
  from: string;
  to: string;
  asOf: string;
  rows: ({ key: string | null } & Figures)[];
  totals: Figures;
  previous: Figures | null;
}

const KEY_OF: Record<Dimension, (e: RawEvent) => string | null> = {
  country: (e) => e.country,
  device_type: (e) => e.device_type,
  browser: (e) => e.browser,
  os: (e) => e.os,
  referrer_domain: (e) => e.referrer_domain,
  utm_source: (e) => e.utm_source,
  utm_medium: (e) => e.utm_medium,
  utm_campaign: (e) => e.utm_campaign,
  link: (e) => e.link,
  campaign: (e) => e.campaign,
  account_domain: (e) => e.account,
};

/** The recount (docs/api.md §6.9), straight from the events. */
function recount(events: RawEvent[], metrics: Metric[], includeBots: boolean, includeInternal: boolean): Figures {
  const counts = (e: RawEvent) => (includeBots || !e.bot) && (includeInternal || !e.internal);
  const of = (type: string) => events.filter((e) => e.type === type && counts(e)).length;
  const distinct = (values: (string | null)[]) => new Set(values.filter((v) => v !== null)).size;
  const views = events.filter((e) => e.type === 'page_view' && counts(e));
  const figure: Record<Metric, () => number> = {
    opens: () => of('open'),
    loads: () => of('page_view'),
    visitors: () =>
      distinct(views.map((e) => e.visitor_id)) +
      distinct(views.filter((e) => e.visitor_id === null).map((e) => e.page_view_id)),
    sessions: () => distinct(events.filter(counts).map((e) => e.session_id)),
    startedSessions: () =>
      distinct(events.filter((e) => e.type === 'session_started' && counts(e)).map((e) => e.session_id)),
    engagedSessions: () =>
      distinct(events.filter((e) => e.type === 'session_engaged' && counts(e)).map((e) => e.session_id)),
    leads: () => of('lead_submitted'),
    meetingsClicked: () => of('meeting_clicked'),
    meetingsBooked: () => of('meeting_booked'),
    botOpens: () => events.filter((e) => e.type === 'open' && e.bot).length,
    internalOpens: () => events.filter((e) => e.type === 'open' && !e.bot && e.internal).length,
  };
  return Object.fromEntries(metrics.map((m) => [m, figure[m]()]));
}

/** The zone's local parts of an instant, and its offset as the API writes it (+01:00). */
function local(at: Date, zone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.slice(3);
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    weekday: parts.weekday,
    day: parts.day,
    offset,
  };
}

/** The next calendar day of a YYYY-MM-DD date. */
const nextDate = (date: string, days = 1) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Checks a time series' buckets against the zone's calendar; returns their starts. */
function checkBuckets(answer: Answer, interval: string, zone: string, from: Date, to: Date): Date[] {
  const starts = answer.rows.map((row) => new Date(row.key as string));
  expect(starts.length).toBeGreaterThan(0);
  answer.rows.forEach((row, i) => {
    const at = starts[i];
    const parts = local(at, zone);
    // The key is the start in local time with the zone's offset there.
    expect(row.key).toBe(`${parts.date}T${parts.time}.000${parts.offset}`);
    if (interval !== 'hour') expect(parts.time).toBe('00:00:00');
    if (interval === 'week') expect(parts.weekday).toBe('Mon');
    if (interval === 'month') expect(parts.day).toBe('01');
    if (i === 0) return;
    const before = local(starts[i - 1], zone);
    if (interval === 'hour') expect(at.getTime() - starts[i - 1].getTime()).toBe(HOUR);
    if (interval === 'day') expect(parts.date).toBe(nextDate(before.date));
    if (interval === 'week') expect(parts.date).toBe(nextDate(before.date, 7));
    if (interval === 'month') expect(parts.date.slice(0, 7)).not.toBe(before.date.slice(0, 7));
  });
  expect(starts[0].getTime()).toBeLessThanOrEqual(from.getTime());
  if (starts.length > 1) expect(starts[1].getTime()).toBeGreaterThan(from.getTime());
  expect(starts[starts.length - 1].getTime()).toBeLessThan(to.getTime());
  return starts;
}

describe('GET /api/v1/analytics', () => {
  let t: TestApp;
  let pool: Pool;
  let who: Tenant;
  let events: RawEvent[];
  const campaigns = [randomUUID(), randomUUID()];
  const links = Array.from({ length: 6 }, () => randomUUID());

  const ask = (query: Record<string, string | number | boolean>, key = who.key) =>
    request(t.server).get(ANALYTICS).query(query).set('x-api-key', key);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    who = await t.createTenant();
    const org = who.organizationId;
    for (const id of campaigns)
      await pool.query(`INSERT INTO campaigns (organization_id, id, name) VALUES ($1, $2, $3)`, [
        org,
        id,
        `Campaign ${id}`,
      ]);
    // Two links in each campaign, two unfiled; accounts acme.com (3), globex.com (2), none (1).
    const filed = [campaigns[0], campaigns[0], campaigns[1], campaigns[1], null, null];
    const accounts = ['acme.com', 'acme.com', 'globex.com', 'globex.com', 'acme.com', null];
    for (const [i, id] of links.entries())
      await pool.query(
        `WITH l AS (
           INSERT INTO custom_links (organization_id, id, slug, display_name, active, campaign_id, thumbnail_status, email, account_domain)
           VALUES ($1, $2, $3, $4, true, $5, 'provided', $6, $7) RETURNING *)
         ${LINK_DERIVED_ROWS}`,
        [
          org,
          id,
          `an${id.replace(/-/g, '').slice(0, 20)}`,
          `Link ${i}`,
          filed[i],
          accounts[i] ? `p${i}@${accounts[i]}` : null,
          accounts[i],
        ],
      );

    const random = seededRandom(33);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const maybe = <T>(share: number, value: () => T): T | undefined => (random() < share ? value() : undefined);
    const sent = Array.from({ length: 700 }, (_, n) => ({
      eventId: `analytics-${n}`,
      type: pick(INGESTED_EVENT_TYPES),
      customLinkId: pick(links),
      // Some on whole hours and days, the rest anywhere.
      occurredAt: new Date(
        n % 10 === 0
          ? SPAN_START + Math.floor(random() * 27) * DAY + Math.floor(random() * 24) * HOUR
          : SPAN_START + Math.floor(random() * (SPAN_END - SPAN_START)),
      ).toISOString(),
      pageViewId: maybe(0.8, () => `pv-${Math.floor(random() * 400)}`),
      visitorId: maybe(0.6, () => `visitor-${Math.floor(random() * 25)}`),
      sessionId: maybe(0.6, () => `00000000-0000-4000-8000-${String(Math.floor(random() * 40)).padStart(12, '0')}`),
      country: maybe(0.8, () => pick(['DE', 'US', 'FR', 'IN'])),
      userAgent: maybe(0.8, () =>
        pick([
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        ]),
      ),
      referrer: maybe(0.5, () => pick(['https://www.linkedin.com/feed/', 'https://mail.google.com/mail/u/0/'])),
      utm: maybe(0.5, () => ({
        source: pick(['newsletter', 'linkedin']),
        medium: pick(['email', 'social']),
        campaign: 'q1',
      })),
      bot: random() < 0.1 ? true : undefined,
      internal: random() < 0.1 ? true : undefined,
    }));
    // A third more events like earlier ones in the same hour (same link, type and context), so that
    // hourly aggregates hold several events each.
    for (let n = 0; n < 250; n++) {
      const like = sent[Math.floor(random() * sent.length)];
      const hour = Date.parse(like.occurredAt) - (Date.parse(like.occurredAt) % HOUR);
      sent.push({
        ...like,
        eventId: `analytics-like-${n}`,
        occurredAt: new Date(hour + Math.floor(random() * HOUR)).toISOString(),
      });
    }
    for (let i = 0; i < sent.length; i += 250) {
      const res = await request(t.server)
        .post('/api/v1/events')
        .set('x-api-key', who.key)
        .send({ events: sent.slice(i, i + 250).map((e) => JSON.parse(JSON.stringify(e)) as object) })
        .expect(202);
      expect(res.body).toMatchObject({ accepted: Math.min(250, sent.length - i), rejected: [] });
    }
    await foldNow(t.app, org);
    events = await storedEvents();
    // The context the questions group and filter by is there.
    expect(events).toHaveLength(sent.length);
    expect(new Set(events.map((e) => e.device_type))).toEqual(new Set(['desktop', 'mobile', null]));
    expect(new Set(events.map((e) => e.referrer_domain))).toEqual(new Set(['linkedin.com', 'google.com', null]));
  });

  /** Records the source of every question the repository answers from here on. */
  function recordSources() {
    const repository = t.app.get(AnalyticsRepository);
    const sources: AnalyticsSource[] = [];
    const rows = repository.rows.bind(repository);
    const spy = jest.spyOn(repository, 'rows').mockImplementation((organizationId, statement, key, limit) => {
      sources.push(statement.source);
      return rows(organizationId, statement, key, limit);
    });
    return { sources, spy };
  }

  /** The organization's stored events, each with its link's campaign and account domain as they are now. */
  async function storedEvents(): Promise<RawEvent[]> {
    const { rows } = await pool.query<RawEvent>(
      `SELECT e.custom_link_id AS link, l.campaign_id AS campaign, l.account_domain AS account, e.type, e.occurred_at AS at, e.bot,
              e.internal_reason IS NOT NULL AS internal, e.visitor_id, e.page_view_id, e.session_id::text, e.country, e.device_type,
              e.browser, e.os, e.referrer_domain, e.utm_source, e.utm_medium, e.utm_campaign
         FROM link_events e JOIN custom_links l ON l.organization_id = e.organization_id AND l.id = e.custom_link_id
        WHERE e.organization_id = $1`,
      [who.organizationId],
    );
    return rows;
  }

  afterAll(async () => {
    await pool.end();
    await t.close();
  });

  /** The recount of a question over the raw events. */
  function expected(query: Record<string, string | number | boolean>, answer: Answer) {
    const metrics = String(query.metrics).split(',') as Metric[];
    const from = new Date(String(query.from));
    const to = new Date(String(query.to));
    const bots = query.include_bots === true;
    const internal = query.include_internal === true;
    const list = (name: string) => (query[name] === undefined ? null : String(query[name]).split(','));
    const filters: [string, (e: RawEvent) => string | null][] = [
      ['campaign_id', (e) => e.campaign],
      ['link_id', (e) => e.link],
      ['country', (e) => e.country],
      ['device_type', (e) => e.device_type],
      ['utm_source', (e) => e.utm_source],
      ['referrer_domain', (e) => e.referrer_domain],
      ['account_domain', (e) => e.account],
    ];
    const matching = (start: Date, end: Date) =>
      events.filter(
        (e) =>
          e.at >= start &&
          e.at < end &&
          filters.every(
            ([name, value]) => list(name) === null || (list(name) as string[]).includes(value(e) as string),
          ),
      );
    const inRange = matching(from, to);
    const totals = recount(inRange, metrics, bots, internal);
    const span = to.getTime() - from.getTime();
    const previous =
      query.compare === 'previous'
        ? recount(matching(new Date(from.getTime() - span), from), metrics, bots, internal)
        : null;
    let rows: ({ key: string | null } & Figures)[];
    if (query.group_by === 'time') {
      const starts = checkBuckets(answer, String(query.interval), String(query.timezone ?? 'UTC'), from, to);
      rows = starts.map((start, i) => {
        const end = i + 1 < starts.length ? starts[i + 1] : to;
        const bucket = inRange.filter((e) => e.at >= start && e.at < end);
        return { key: answer.rows[i].key, ...recount(bucket, metrics, bots, internal) };
      });
    } else {
      const keyOf = KEY_OF[query.group_by as Dimension];
      const keys = [...new Set(inRange.map(keyOf))];
      rows = keys
        .map((key) => ({
          key,
          ...recount(
            inRange.filter((e) => keyOf(e) === key),
            metrics,
            bots,
            internal,
          ),
        }))
        .filter((row) => metrics.some((m) => (row[m] as number) > 0))
        .sort((a, b) => {
          const first = (b[metrics[0]] as number) - (a[metrics[0]] as number);
          if (first !== 0) return first;
          if (a.key === null) return 1;
          if (b.key === null) return -1;
          return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
        })
        .slice(0, Number(query.limit ?? 20));
    }
    return { rows, totals, previous };
  }

  it('equals a recount over the raw events for generated questions: every metric, grouping, interval, zone, range and filter', async () => {
    // Which source answered each question: each must, and agree with the recount.
    const { sources, spy } = recordSources();
    const random = seededRandom(3301);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const instant = (aligned: boolean, lo: number, hi: number) => {
      const at = lo + Math.floor(random() * (hi - lo));
      return new Date(aligned ? at - (at % HOUR) : at);
    };
    for (let n = 0; n < 120; n++) {
      // Half of the questions count events only: the aggregates can answer those.
      const asked = random() < 0.5 ? COUNTED : METRICS;
      const metrics = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(asked)))];
      const groupBy = random() < 0.4 ? 'time' : pick(DIMENSIONS);
      const interval = pick(['hour', 'day', 'day', 'week', 'month']);
      // Aligned ranges (whole UTC hours, counted metrics) are answered from the hourly aggregates.
      const aligned = random() < 0.6;
      const from = instant(aligned, SPAN_START - 2 * DAY, SPAN_START + 20 * DAY);
      const longest = groupBy === 'time' && interval === 'hour' ? 6 * DAY : 40 * DAY;
      const to = new Date(
        Math.max(from.getTime() + HOUR, instant(aligned, from.getTime() + HOUR, from.getTime() + longest).getTime()),
      );
      const query: Record<string, string | number | boolean> = {
        metrics: metrics.join(','),
        group_by: groupBy,
        from: from.toISOString(),
        to: to.toISOString(),
        timezone: pick(ZONES),
        limit: 1 + Math.floor(random() * 8),
      };
      if (groupBy === 'time') query.interval = interval;
      if (random() < 0.3) query.include_bots = true;
      if (random() < 0.3) query.include_internal = true;
      if (random() < 0.3) query.compare = 'previous';
      const filter = pick([
        'none',
        'none',
        'campaign_id',
        'link_id',
        'country',
        'device_type',
        'utm_source',
        'referrer_domain',
        'account_domain',
      ]);
      if (filter === 'campaign_id') query.campaign_id = pick(campaigns);
      if (filter === 'link_id') query.link_id = `${pick(links)},${pick(links)}`;
      if (filter === 'country') query.country = 'DE,FR';
      if (filter === 'device_type') query.device_type = 'mobile';
      if (filter === 'utm_source') query.utm_source = 'newsletter';
      if (filter === 'referrer_domain') query.referrer_domain = 'linkedin.com';
      if (filter === 'account_domain') query.account_domain = 'acme.com';
      const res = await ask(query);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      const answer = res.body as Answer;
      expect({ query, answer: { rows: answer.rows, totals: answer.totals, previous: answer.previous } }).toEqual({
        query,
        answer: expected(query, answer),
      });
      expect(answer).toMatchObject({
        metrics,
        groupBy,
        interval: groupBy === 'time' ? interval : null,
        timezone: query.timezone,
        from: from.toISOString(),
        to: to.toISOString(),
      });
    }
    spy.mockRestore();
    const answered = (kind: AnalyticsSource['kind']) => sources.filter((s) => s.kind === kind).length;
    expect(answered('facets')).toBeGreaterThanOrEqual(10);
    expect(answered('hours')).toBeGreaterThanOrEqual(10);
    expect(answered('log')).toBeGreaterThanOrEqual(10);
  });

  it("cuts days at the zone's midnight across daylight-saving changes: Berlin's 29 March 2026 is one 23-hour bucket", async () => {
    const res = await ask({
      metrics: 'opens',
      group_by: 'time',
      interval: 'day',
      timezone: 'Europe/Berlin',
      from: '2026-03-28T00:00:00+01:00',
      to: '2026-03-31T00:00:00+02:00',
    }).expect(200);
    const keys = (res.body as Answer).rows.map((row) => row.key);
    expect(keys).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);
    expect(Date.parse(keys[2] as string) - Date.parse(keys[1] as string)).toBe(23 * HOUR);
  });

  it('answers the rows as CSV with format=csv', async () => {
    const query = {
      metrics: 'opens,visitors',
      group_by: 'country',
      from: '2026-03-01T00:00:00Z',
      to: '2026-04-05T00:00:00Z',
    };
    const json = (await ask(query).expect(200)).body as Answer;
    const res = await ask({ ...query, format: 'csv' }).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.text).toBe(
      ['key,opens,visitors', ...json.rows.map((r) => `${r.key ?? ''},${r.opens},${r.visitors}`)]
        .map((l) => `${l}\r\n`)
        .join(''),
    );
    expect(json.rows.length).toBeGreaterThan(1);
  });

  it('gives zero figures, not 404, for a campaign or link of no events', async () => {
    const range = { from: '2026-03-01T00:00:00Z', to: '2026-04-05T00:00:00Z' };
    const dims = (await ask({ metrics: 'opens', group_by: 'country', campaign_id: randomUUID(), ...range }).expect(200))
      .body as Answer;
    expect(dims).toMatchObject({ rows: [], totals: { opens: 0 }, previous: null });
    const series = (
      await ask({ metrics: 'opens', group_by: 'time', interval: 'week', link_id: randomUUID(), ...range }).expect(200)
    ).body as Answer;
    expect(series.rows.length).toBe(6);
    expect(series.rows.every((row) => row.opens === 0)).toBe(true);
  });

  it("never counts another organization's events", async () => {
    const other = await t.createTenant();
    const res = await ask(
      { metrics: 'opens,loads,visitors', group_by: 'link', from: '2026-03-01T00:00:00Z', to: '2026-04-05T00:00:00Z' },
      other.key,
    ).expect(200);
    expect(res.body).toMatchObject({ rows: [], totals: { opens: 0, loads: 0, visitors: 0 } });
  });

  it('needs the analytics:read scope', async () => {
    const key = await t.createKey(who.organizationId, ['sessions:read']);
    await ask({ metrics: 'opens', group_by: 'country', from: '2026-03-01', to: '2026-03-02' }, key).expect(403);
  });

  describe('422 in the pydantic shape', () => {
    const base = {
      metrics: 'opens',
      group_by: 'time',
      interval: 'day',
      from: '2026-03-01T00:00:00Z',
      to: '2026-03-08T00:00:00Z',
    };
    const issue = async (query: Record<string, string>) => {
      const res = await ask(query).expect(422);
      const body = res.body as { detail: { type: string; loc: (string | number)[]; msg: string }[] };
      expect(body.detail).toHaveLength(1);
      return body.detail[0];
    };
    const without = (name: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== name));

    it.each([
      ['an unknown metric', { ...base, metrics: 'opens,clicks' }, 'enum', 'metrics'],
      ['an unknown grouping', { ...base, group_by: 'city' }, 'enum', 'group_by'],
      ['an unknown interval', { ...base, interval: 'fortnight' }, 'enum', 'interval'],
      ['no metrics', without('metrics'), 'missing', 'metrics'],
      ['no grouping', without('group_by'), 'missing', 'group_by'],
      ['no from', without('from'), 'missing', 'from'],
      ['no to', without('to'), 'missing', 'to'],
      ['no interval with group_by=time', without('interval'), 'missing', 'interval'],
      ['an unknown time zone', { ...base, timezone: 'Mars/Olympus_Mons' }, 'value_error', 'timezone'],
      ['a POSIX zone rule', { ...base, timezone: 'UTC+3' }, 'value_error', 'timezone'],
      ['to before from', { ...base, to: '2026-02-01T00:00:00Z' }, 'value_error', 'to'],
      ['to equal to from', { ...base, to: base.from }, 'value_error', 'to'],
      ['32 days of hours', { ...base, interval: 'hour', to: '2026-04-02T00:00:00Z' }, 'value_error', 'to'],
      ['732 days', { ...base, to: '2028-03-02T00:00:00Z' }, 'value_error', 'to'],
      ['a malformed from', { ...base, from: 'yesterday' }, 'datetime_from_date_parsing', 'from'],
      ['a malformed link id', { ...base, link_id: 'not-a-uuid' }, 'uuid_parsing', 'link_id'],
      [
        '101 link ids',
        { ...base, link_id: Array.from({ length: 101 }, () => randomUUID()).join(',') },
        'too_long',
        'link_id',
      ],
      ['a limit of 101', { ...base, group_by: 'country', limit: '101' }, 'less_than_equal', 'limit'],
      ['an unknown compare', { ...base, compare: 'last_year' }, 'enum', 'compare'],
    ])('%s', async (_name, query, type, param) => {
      const found = await issue(query as Record<string, string>);
      expect({ type: found.type, loc: found.loc.slice(0, 2) }).toEqual({ type, loc: ['query', param] });
    });

    it('accepts 31 days of hours and 731 days of days', async () => {
      await ask({ ...base, interval: 'hour', to: '2026-04-01T00:00:00Z' }).expect(200);
      await ask({ ...base, to: '2028-03-01T00:00:00Z' }).expect(200);
    });
  });

  it("files a link's events anew when it moves: PATCH campaign or email, a bulk move, a campaign deleted", async () => {
    const { sources: facets, spy } = recordSources();
    const range = { from: '2026-02-27T00:00:00Z', to: '2026-04-05T00:00:00Z' };
    const questions = [
      { metrics: 'opens,loads,leads', group_by: 'campaign', ...range },
      { metrics: 'opens,meetingsBooked,botOpens', group_by: 'account_domain', include_internal: true, ...range },
      { metrics: 'opens,loads', group_by: 'time', interval: 'day', campaign_id: campaigns[1], ...range },
      { metrics: 'opens,internalOpens', group_by: 'time', interval: 'week', account_domain: 'initech.com', ...range },
      { metrics: 'opens', group_by: 'time', interval: 'day', campaign_id: campaigns[0], ...range },
    ];
    const checkAll = async (step: string) => {
      events = await storedEvents();
      for (const query of questions) {
        const answer = (await ask(query).expect(200)).body as Answer;
        expect({
          step,
          query,
          answer: { rows: answer.rows, totals: answer.totals, previous: answer.previous },
        }).toEqual({
          step,
          query,
          answer: expected(query, answer),
        });
      }
    };
    const patch = (id: string, body: object) =>
      request(t.server)
        .patch(`/api/v1/custom-links/${id}`)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', randomUUID())
        .send(body)
        .expect(200);
    await patch(links[0], { campaign: { id: campaigns[1] } });
    await checkAll('PATCH campaign');
    await patch(links[2], { email: 'someone@initech.com' });
    await patch(links[5], { prospectDomain: 'initech.com', campaign: null });
    await checkAll('PATCH email, prospect domain and unfiled');
    await request(t.server)
      .post('/api/v1/custom-links/actions')
      .set('x-api-key', who.key)
      .send({ action: 'move', customLinkIds: [links[4], links[1]], campaignId: campaigns[1] })
      .expect(200);
    await checkAll('bulk move');
    await request(t.server)
      .delete(`/api/v1/custom-link-campaigns/${campaigns[1]}`)
      .set('x-api-key', who.key)
      .expect(204);
    await checkAll('campaign deleted');
    spy.mockRestore();
    // Each step moved events between the facet values the questions read.
    expect(facets.every((source) => source.kind === 'facets')).toBe(true);
    expect(new Set(events.map((e) => e.campaign))).toEqual(new Set([null]));
    expect(events.some((e) => e.account === 'initech.com')).toBe(true);
  });

  it('keeps an answer of the aggregates until they change: asked again, it is not computed again; after a fold it is', async () => {
    const repository = t.app.get(AnalyticsRepository);
    const computed = jest.spyOn(repository, 'rows');
    const query = {
      metrics: 'opens,loads',
      group_by: 'country',
      from: '2026-03-01T00:00:00Z',
      to: '2026-04-05T00:00:00Z',
    };
    const first = (await ask(query).expect(200)).body as Answer;
    const again = (await ask(query).expect(200)).body as Answer;
    expect(again).toEqual({ ...first, asOf: again.asOf });
    expect(computed).toHaveBeenCalledTimes(1);
    // Three more opens from Germany: the fold writes the aggregates, the answer follows.
    await request(t.server)
      .post('/api/v1/events')
      .set('x-api-key', who.key)
      .send({
        events: [1, 2, 3].map((n) => ({
          eventId: `kept-${n}`,
          type: 'open',
          customLinkId: links[3],
          occurredAt: '2026-03-10T10:00:00Z',
          country: 'DE',
        })),
      })
      .expect(202);
    await foldNow(t.app, who.organizationId);
    const after = (await ask(query).expect(200)).body as Answer;
    expect(computed).toHaveBeenCalledTimes(2);
    computed.mockRestore();
    events = await storedEvents();
    expect({ rows: after.rows, totals: after.totals, previous: after.previous }).toEqual(expected(query, after));
    expect(after.totals.opens).toBe(Number(first.totals.opens) + 3);
  });
});
