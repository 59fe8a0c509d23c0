import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { migrationDataSourceOptions } from '../src/database/data-source-options';
import { EventFold } from '../src/modules/engagement';
import { createDatabaseBefore, dropDatabase } from './support/databases';
import { folded } from './support/fold';
import { createTestApp, type TestApp } from './support/test-app';
import { databaseUrlFor } from './support/test-env';

/**
 * Nothing lost in the move to the event log (issue 32 point 7). A database as today's ingestion left
 * it (test/fixtures/engagement-before-log.sql: two organizations, 16 links, 750 events through the
 * API, with the rollups that ingestion made) is migrated; its events are carried into the log and
 * the rollups stay. Then the fold rebuilds everything from the log alone (a refold) and must arrive
 * at exactly today's rollups, distinct values, session references, campaign engagement, and the
 * hourly aggregates and analytics facets the migrations computed.
 */
jest.setTimeout(120_000);

const FIXTURE = join(__dirname, 'fixtures', 'engagement-before-log.sql');
const CLI = join(__dirname, '..', 'dist/src/cli.js');

/** Everything the fold derives from the log, in a stable order (the link rows without their updated_at). */
const DERIVED: Record<string, string> = {
  links: `SELECT organization_id, id, open_observed, bot_open_count, bot_opens, internal_open_count, load_count, page_view_count,
                 ephemeral_page_view_count, persistent_visitor_count, session_count, started_session_count, engaged_session_count,
                 first_opened_at, last_opened_at, first_started_at, first_engaged_at, first_lead_submitted_at, first_meeting_clicked_at,
                 first_meeting_booked_at, last_activity_at, last_activity_type, last_activity_event_id, stage
            FROM custom_links ORDER BY organization_id, id`,
  distinctValues: `SELECT * FROM link_distinct_values ORDER BY organization_id, custom_link_id, kind, value`,
  sessions: `SELECT * FROM link_sessions ORDER BY organization_id, custom_link_id, session_id`,
  campaigns: `SELECT * FROM campaign_engagement ORDER BY organization_id, campaign_id`,
};
const HOURS = `SELECT * FROM link_event_hours ORDER BY organization_id, custom_link_id, hour, type, bot, internal, country NULLS FIRST,
  device_type NULLS FIRST, browser NULLS FIRST, os NULLS FIRST, referrer_domain NULLS FIRST, utm_source NULLS FIRST,
  utm_medium NULLS FIRST, utm_campaign NULLS FIRST`;

/** The analytics facets the migration AnalyticsFacets computed from the hourly aggregates (rows at zero add nothing). */
const FACETS = `SELECT 'hour' AS period, organization_id, facet, value, hour AS at, type, bot, internal, events FROM event_facet_hours WHERE events <> 0
  UNION ALL SELECT 'day', organization_id, facet, value, day, type, bot, internal, events FROM event_facet_days WHERE events <> 0
  ORDER BY period, organization_id, facet, value NULLS FIRST, at, type, bot, internal`;

async function snapshot(db: Client, queries: Record<string, string>): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(queries)) result[name] = (await db.query(sql)).rows;
  return result;
}

describe('the event log migration', () => {
  const name = `engagement_log_migration_${process.pid}`;
  const url = databaseUrlFor(name);
  let db: Client;
  let t: TestApp | undefined;

  beforeAll(async () => {
    await createDatabaseBefore(name, 'EventLog1766500000000');
    // Rows as they were, triggers off: the dump holds what the triggers made (campaign engagement).
    execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-f', FIXTURE, url], {
      env: { ...process.env, PGOPTIONS: '-c session_replication_role=replica' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await t?.close();
    await db?.end();
    await dropDatabase(name);
  });

  it("carries today's events into the log and keeps today's rollups; a refold from the log alone arrives at the same", async () => {
    const today = await snapshot(db, DERIVED);
    const events = (await db.query(`SELECT organization_id, event_id FROM link_events ORDER BY 1, 2`)).rows;
    expect(events).toHaveLength(750);
    expect((today.links as { open_observed: boolean }[]).filter((l) => l.open_observed).length).toBeGreaterThan(5);
    expect(today.campaigns.length).toBe(4);

    const after = new DataSource(migrationDataSourceOptions(url));
    await after.initialize();
    expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toContain('EventLog1766500000000');
    await after.destroy();

    // Carried: every event once in the log and in the ids, none waiting, the rollups untouched.
    expect((await db.query(`SELECT organization_id, event_id FROM link_events ORDER BY 1, 2`)).rows).toEqual(events);
    expect((await db.query(`SELECT organization_id, event_id FROM link_event_ids ORDER BY 1, 2`)).rows).toEqual(events);
    expect((await db.query(`SELECT count(*)::int AS n FROM link_event_batches`)).rows).toEqual([{ n: 0 }]);
    expect(await snapshot(db, DERIVED)).toEqual(today);
    const hours = (await db.query(HOURS)).rows as { events: number }[];
    expect(hours.reduce((sum, h) => sum + h.events, 0)).toBe(750);
    // Every event once in each facet, by hour and by day.
    const facets = (await db.query(FACETS)).rows as { period: string; facet: string; events: number }[];
    const counted = (period: string, facet: string) =>
      facets.filter((f) => f.period === period && f.facet === facet).reduce((sum, f) => sum + f.events, 0);
    for (const period of ['hour', 'day'])
      for (const facet of ['all', 'country', 'campaign', 'account_domain'])
        expect({ period, facet, events: counted(period, facet) }).toEqual({ period, facet, events: 750 });

    t = await createTestApp({ APP_ROLE: 'all', DATABASE_URL: url, QUEUE_PREFIX: `bull-log-migration-${randomUUID()}` });
    const fold = t.app.get(EventFold);
    const organizations = (await db.query(`SELECT id FROM organizations ORDER BY id`)).rows as { id: string }[];
    let queued = 0;
    for (const { id } of organizations) queued += await fold.refold(id);
    expect(queued).toBe(750);
    await folded(t.app, undefined, 30_000);

    expect(await snapshot(db, DERIVED)).toEqual(today);
    expect((await db.query(HOURS)).rows).toEqual(hours);
    expect((await db.query(FACETS)).rows).toEqual(facets);

    // The operator's way to the same (docs/api.md §15.3): the built CLI queues, the workers fold.
    const [first] = organizations;
    const cli = execFileSync(process.execPath, [CLI, 'events:refold', '--org', first.id], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, REDIS_URL: process.env.REDIS_URL ?? '' },
      timeout: 60_000,
    }).toString();
    const [{ n: ofFirst }] = (
      await db.query(`SELECT count(*)::int AS n FROM link_events WHERE organization_id = $1`, [first.id])
    ).rows as { n: number }[];
    expect(JSON.parse(cli)).toEqual({ organizationId: first.id, queuedEvents: ofFirst });
    await folded(t.app, undefined, 30_000);
    expect(await snapshot(db, DERIVED)).toEqual(today);
    expect((await db.query(HOURS)).rows).toEqual(hours);
    expect((await db.query(FACETS)).rows).toEqual(facets);
  });

  it('keeps the log in monthly partitions (UTC) through two months ahead, so a month can be dropped whole', async () => {
    const partitions = async () =>
      (
        (await db.query(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'link_events'::regclass ORDER BY 1`,
        )) as { rows: { name: string }[] }
      ).rows.map((row) => row.name);
    const month = (ahead: number) => {
      const now = new Date();
      const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
      return `link_events_${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
    };
    // The fixture's events were received in the month it was made: their month has a partition too.
    expect(await partitions()).toEqual(expect.arrayContaining(['link_events_default', month(0), month(1), month(2)]));
    const fold = (t as TestApp).app.get(EventFold);
    expect(await fold.ensurePartitions()).toEqual([]);
    await db.query(`DROP TABLE ${month(2)}`);
    expect(await fold.ensurePartitions()).toEqual([month(2)]);
    expect(await partitions()).toContain(month(2));
    const [row]: { n: number }[] = (await db.query(`SELECT count(*)::int AS n FROM link_events_default`)).rows;
    expect(row.n).toBe(0);
  });
});
