'use strict';
/**
 * EXPLAIN (ANALYZE, BUFFERS) of the keyset and updated_since pages of the synced lists (issue 20
 * point 2) on a scratch database this script fills (never the bench database): one large
 * organization beside a smaller one. The SQL mirrors the repositories' (page CTEs, keyset
 * conditions, counts). Usage, after `npm run build` and `node dist/src/cli.js migration:run` on it:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<scratch> node bench/experiments/sync-explain.js [--seed]
 */
const { Client } = require('pg');

const BIG = '00000000-0000-4000-8000-000000000001';
const SMALL = '00000000-0000-4000-8000-000000000002';
const LINK = '00000000-0000-4000-8000-0000000000a1';
const ENDPOINT = '00000000-0000-4000-8000-0000000000e1';
const MESSAGE = '00000000-0000-4000-8000-0000000000f1';
const VISIBLE = `s.environment = 'production' AND s.analysis_status = 'analyzed'`;

const SEED = [
  `INSERT INTO organizations (id, name) VALUES ('${BIG}', 'big'), ('${SMALL}', 'small')`,
  ...[
    [BIG, 400000],
    [SMALL, 100000],
  ].flatMap(([org, n]) => [
    `INSERT INTO sessions (organization_id, id, environment, analysis_status, start_time, qualification_status, effective_qualification_status,
       buying_intent, booked_status, tracking, details, fingerprint, email_key)
     SELECT '${org}', gen_random_uuid(), CASE WHEN g % 23 = 0 THEN 'staging' ELSE 'production' END, CASE WHEN g % 29 = 0 THEN 'pending' ELSE 'analyzed' END,
       timestamptz '2025-01-01' + g * interval '61 seconds', 'qualified', 'qualified', 'high', 'booked', '{}', '{}', md5(g::text || '${org}'), 'p' || (g % 50000) || '@a' || (g % 9000) || '.com'
       FROM generate_series(1, ${n}) g`,
    `INSERT INTO people (organization_id, id, email_key, total_sessions, booked_sessions, first_seen_at, last_seen_at, total_time_spent_seconds,
       intent_score, overall_intent, intent_calculated_at, account_domain)
     SELECT '${org}', gen_random_uuid(), 'p' || g || '@a' || (g % 9000) || '.com', 3, 1, timestamptz '2025-01-01', timestamptz '2025-01-01' + g * interval '7 minutes', 600,
       1, 'high', now(), 'a' || (g % 9000) || '.com' FROM generate_series(1, ${n / 2}) g`,
    `INSERT INTO accounts (organization_id, id, account_domain, total_users, total_sessions, booked_sessions, high_intent_users, qualified_users,
       total_time_spent_seconds, last_seen_at)
     SELECT '${org}', gen_random_uuid(), 'd' || g || '.com', 1, 1, 0, 0, 0, 60, timestamptz '2025-01-01' + (g / 3) * interval '5 minutes' FROM generate_series(1, ${n / 2}) g`,
    `INSERT INTO campaigns (organization_id, id, name, created_at) SELECT '${org}', gen_random_uuid(), 'c' || g, timestamptz '2025-01-01' + g * interval '1 minute' FROM generate_series(1, ${n / 20}) g`,
    `INSERT INTO custom_links (organization_id, id, slug, display_name, active, thumbnail_status, stage, created_at)
     SELECT '${org}', gen_random_uuid(), 's' || substr(md5(g || '${org}'), 1, 30), 'L' || g, true, 'provided', 'not_opened', timestamptz '2025-01-01' + g * interval '13 seconds'
       FROM generate_series(1, ${n}) g`,
  ]),
  `INSERT INTO custom_links (organization_id, id, slug, display_name, active, thumbnail_status, stage) VALUES ('${BIG}', '${LINK}', 'theLink', 'L', true, 'provided', 'opened')`,
  `INSERT INTO link_events (organization_id, event_id, custom_link_id, type, occurred_at, bot)
   SELECT '${BIG}', 'ev-' || g, '${LINK}', 'page_view', timestamptz '2025-01-01' + (g / 2) * interval '3 seconds', g % 10 = 0 FROM generate_series(1, 300000) g`,
  `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret) VALUES ('${BIG}', '${ENDPOINT}', 'https://example.com/h', '{session.analyzed}', 'whsec_x')`,
  `INSERT INTO webhook_messages (organization_id, id, event_type, body) VALUES ('${BIG}', '${MESSAGE}', 'session.analyzed', '{}')`,
  `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, created_at)
   SELECT '${BIG}', gen_random_uuid(), '${ENDPOINT}', '${MESSAGE}', 1, CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'succeeded' END, timestamptz '2025-01-01' + g * interval '2 seconds'
     FROM generate_series(1, 300000) g`,
  // Changes after the load: 5% of each synced table moves its updated_at (the trigger), the rest stays at load time.
  ...['sessions', 'people', 'accounts', 'custom_links'].map(
    (t) =>
      `UPDATE ${t} SET created_at = created_at - interval '1 microsecond' WHERE ('x' || substr(md5(id::text), 1, 8))::bit(32)::int % 20 = 0`,
  ),
  'VACUUM ANALYZE',
];

/** A mid-list keyset and an updated_since instant, read from the data. */
async function probes(db) {
  const q = async (sql) => (await db.query(sql)).rows[0];
  return {
    account: await q(
      `SELECT last_seen_at::text AS t, id FROM accounts WHERE organization_id = '${BIG}' ORDER BY last_seen_at DESC, id DESC OFFSET 100000 LIMIT 1`,
    ),
    // The instant after which the last 3% of each table changed.
    since: Object.fromEntries(
      await Promise.all(
        ['sessions', 'people', 'accounts', 'custom_links'].map(async (t) => [
          t,
          (
            await q(
              `SELECT percentile_disc(0.97) WITHIN GROUP (ORDER BY updated_at)::text AS t FROM ${t} WHERE organization_id = '${BIG}'`,
            )
          ).t,
        ]),
      ),
    ),
    campaign: await q(
      `SELECT created_at::text AS t, id FROM campaigns WHERE organization_id = '${BIG}' ORDER BY created_at DESC, id DESC OFFSET 10000 LIMIT 1`,
    ),
    delivery: await q(
      `SELECT created_at::text AS t, id FROM webhook_deliveries ORDER BY created_at DESC, id DESC OFFSET 150000 LIMIT 1`,
    ),
    event: await q(
      `SELECT occurred_at::text AS t, event_id AS id FROM link_events ORDER BY occurred_at DESC, event_id DESC OFFSET 150000 LIMIT 1`,
    ),
    updated: await q(
      `SELECT updated_at::text AS t, id FROM sessions s WHERE organization_id = '${BIG}' AND ${VISIBLE} ORDER BY updated_at DESC, id DESC OFFSET 3000 LIMIT 1`,
    ),
  };
}

function plans(p) {
  const since = (table) => `'${p.since[table]}'::timestamptz`;
  return {
    'accounts first page': `SELECT *, ARRAY[last_seen_at::text, id::text] AS keyset FROM accounts WHERE organization_id = '${BIG}' ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET 0`,
    'accounts keyset page (100k deep)': `SELECT * FROM accounts WHERE organization_id = '${BIG}' AND (last_seen_at, id) < ('${p.account.t}'::timestamptz, '${p.account.id}'::uuid) ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET 0`,
    'accounts count': `SELECT count(*) FROM accounts WHERE organization_id = '${BIG}'`,
    'accounts updated_since page': `SELECT * FROM accounts WHERE organization_id = '${BIG}' AND updated_at >= ${since('accounts')} ORDER BY updated_at, id LIMIT 51 OFFSET 0`,
    'accounts updated_since count': `SELECT count(*) FROM accounts WHERE organization_id = '${BIG}' AND updated_at >= ${since('accounts')}`,
    'sessions updated_since keyset page': `WITH page AS (SELECT s.updated_at, s.id FROM sessions s WHERE s.organization_id = '${BIG}' AND ${VISIBLE} AND s.updated_at >= ${since('sessions')}
        AND (s.updated_at, s.id) > ('${p.updated.t}'::timestamptz, '${p.updated.id}'::uuid) ORDER BY s.updated_at ASC, s.id ASC LIMIT 51 OFFSET 0)
       SELECT s.* FROM page JOIN sessions s ON s.organization_id = '${BIG}' AND s.id = page.id ORDER BY page.updated_at, page.id`,
    'sessions updated_since count': `SELECT count(*) FROM sessions s WHERE s.organization_id = '${BIG}' AND ${VISIBLE} AND s.updated_at >= ${since('sessions')}`,
    'people updated_since page': `WITH page AS (SELECT id, last_seen_at, updated_at FROM people WHERE organization_id = '${BIG}' AND updated_at >= ${since('people')} ORDER BY updated_at, id LIMIT 51 OFFSET 0)
       SELECT p.* FROM page JOIN people p ON p.organization_id = '${BIG}' AND p.id = page.id ORDER BY page.updated_at, page.id`,
    'custom links updated_since page': `WITH page AS (SELECT id, created_at, last_activity_at, updated_at FROM custom_links WHERE organization_id = '${BIG}' AND updated_at >= ${since('custom_links')} ORDER BY updated_at, id LIMIT 51 OFFSET 0)
       SELECT l.* FROM page JOIN custom_links l ON l.organization_id = '${BIG}' AND l.id = page.id ORDER BY page.updated_at, page.id`,
    'campaigns keyset page': `SELECT * FROM campaigns WHERE organization_id = '${BIG}' AND (created_at, id) < ('${p.campaign.t}'::timestamptz, '${p.campaign.id}'::uuid) ORDER BY created_at DESC, id DESC LIMIT 51 OFFSET 0`,
    'campaigns count': `SELECT count(*) FROM campaigns WHERE organization_id = '${BIG}'`,
    'deliveries keyset page (status=failed)': `SELECT d.id FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
        WHERE d.organization_id = '${BIG}' AND d.endpoint_id = '${ENDPOINT}' AND ('{failed}'::text[] IS NULL OR d.status = ANY ('{failed}'))
          AND (d.created_at, d.id) < ('${p.delivery.t}'::timestamptz, '${p.delivery.id}'::uuid) ORDER BY d.created_at DESC, d.id DESC LIMIT 51 OFFSET 0`,
    'deliveries keyset page (all)': `SELECT d.id FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
        WHERE d.organization_id = '${BIG}' AND d.endpoint_id = '${ENDPOINT}' AND (NULL::text[] IS NULL OR d.status = ANY (NULL))
          AND (d.created_at, d.id) < ('${p.delivery.t}'::timestamptz, '${p.delivery.id}'::uuid) ORDER BY d.created_at DESC, d.id DESC LIMIT 51 OFFSET 0`,
    'link events keyset page': `SELECT event_id FROM link_events WHERE organization_id = '${BIG}' AND custom_link_id = '${LINK}' AND (false OR NOT bot) AND (NULL::text[] IS NULL OR type = ANY(NULL::text[]))
        AND (occurred_at, event_id) < ('${p.event.t}'::timestamptz, '${p.event.id}'::text) ORDER BY occurred_at DESC, event_id DESC LIMIT 51 OFFSET 0`,
  };
}

async function main() {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  if (process.argv.includes('--seed')) for (const sql of SEED) await db.query(sql);
  for (const [name, sql] of Object.entries(plans(await probes(db)))) {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${sql}`);
    console.log(`\n== ${name}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  await db.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
