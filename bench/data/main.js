// The build: reuse a database that matches the flags, or rebuild it phase by phase on two connections
// (see bench/data.js for usage and flags).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { DIST, GENERATOR_VERSION } = require('./constants');
const { parseFlags, flagsKey } = require('./cli-options');
const { started, timings, log, phase } = require('./log');
const {
  ADMIN_URL,
  databaseUrl,
  withClient,
  storedManifest,
  recreateDatabase,
  onCitus,
  distribute,
  runMigrations,
  connectPair,
} = require('./database');
const { organizationSpecs, createOrganizations } = require('./organizations');
const { createWorkTables } = require('./work-tables');
const { loadCompanies, generateProspects } = require('./prospects');
const { generateCampaigns, planLinks, insertLinks } = require('./campaigns-and-links');
const { assertJsonSafeVocabulary } = require('./session-documents');
const { stageAllSessions, insertSessions } = require('./sessions');
const { stagePeople, computeIntent, insertPeople } = require('./people');
const { insertAccounts } = require('./accounts');
const { insertTranscripts } = require('./transcripts');
const { sampleEmailGrams } = require('./email-gram-samples');
const {
  planVisits,
  numberVisits,
  insertEvents,
  insertEventIds,
  aggregateEventHours,
  createLogPartitions,
  ensureEventContext,
  facetTasks,
} = require('./link-events');
const { shareWork } = require('./shared-work');
const { dropIndexes, restoreIndexes } = require('./deferred-indexes');
const { insertDistinctValues, insertLinkSessions, updateLinkRollups } = require('./link-rollups');
const { verify } = require('./verify');
const { suspendTriggers, rebuildDerivedTables } = require('./derived-tables');
const { countsOf, sampleFor, tenantManifest, storeManifest, writeManifestFile } = require('./manifest');
const { buildResources } = require('./resources');

/**
 * Reuses the database when its stored manifest was built with these flags; returns true when it did.
 * @param {Client} admin
 * @param {import('./cli-options').Flags} flags
 * @param {string} manifestFile
 */
async function reuse(admin, flags, manifestFile) {
  const stored = await storedManifest(admin, flags.database);
  if (!stored || flagsKey(stored.flags) !== flagsKey(flags)) return false;
  const url = databaseUrl(flags.database);
  const intact = await withClient(
    url,
    async (db) => (await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [stored.organizationId])).rowCount === 1,
  ).catch(() => false);
  if (!intact) return false;
  // Migrations added since the build (no-op when none), and the events' context (issue 33) when the build predates it.
  await runMigrations(url);
  if (await withClient(url, ensureEventContext)) log('events given their context (countries, devices, referrers, UTM)');
  writeManifestFile({ ...stored, databaseUrl: url }, manifestFile);
  log(`database ${flags.database} already matches the flags (built ${stored.builtAt}); reused (--rebuild to rebuild)`);
  return true;
}

/**
 * @param {Client} admin
 * @param {import('./cli-options').Flags} flags
 * @param {number} scale
 * @param {string} manifestFile
 */
async function build(admin, flags, scale, manifestFile) {
  const url = databaseUrl(flags.database);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  const deferredIndexes = await phase(
    'database and migrations, indexes of the bulk-loaded tables dropped',
    async () => {
      await recreateDatabase(admin, flags.database);
      await runMigrations(url);
      await withClient(url, suspendTriggers);
      return withClient(url, dropIndexes);
    },
  );
  const { ids, apiKey, tenantApiKey } = await phase('organizations and API keys (project CLI)', () =>
    createOrganizations(url, flags),
  );
  const specs = organizationSpecs(flags, ids);
  const main = ids.main;
  const tenant = specs.find((spec) => spec.label === 'tenant');
  if (specs[0].people < flags.people)
    log(`note: ~8 % of sessions are anonymous, so at most ${specs[0].people} people (not ${flags.people})`);
  const [a, b] = await connectPair(url);
  try {
    await phase('work tables, companies and prospects', async () => {
      await createWorkTables(a);
      const pool = await loadCompanies(a, Math.max(flags.accounts, ...specs.map((s) => s.companies)));
      for (const spec of specs) await generateProspects(a, spec, pool);
      await a.query(`ANALYZE bench_gen.companies, bench_gen.hosts, bench_gen.prospects`);
    });
    const largeCampaigns = new Map();
    await phase('campaigns, link jobs and links (two connections)', async () => {
      await shareWork(
        [a, b],
        specs.map((spec, i) => async (db) => {
          // Each organization's own random sequence: the same links whichever connection takes it.
          await db.query(`SELECT setseed($1)`, [0.3 + i / 100]);
          const campaigns = await generateCampaigns(db, spec, now);
          largeCampaigns.set(spec.id, campaigns[0].id);
          await planLinks(db, spec, campaigns, now);
          await insertLinks(db, spec);
        }),
      );
      await a.query(`ANALYZE bench_gen.links_plan, bench_gen.prospect_links, custom_links`);
    });
    await phase('sessions stage (two connections)', () => stageAllSessions(a, b, specs, now));
    log(
      'two branches run side by side now: [A] people, accounts, sessions, transcripts; [B] link visits, link events; ' +
        'then both the work over the whole log',
    );
    // [B] writes the log; the work over it (hourly aggregates and facets, event ids, session
    // references, distinct values and link rollups) needs the log complete, not the sessions, so [B]
    // starts it while [A] still writes sessions, and [A] joins once its branch is done.
    const logWritten = (async () => {
      await phase('[B] link visits', async () => {
        for (const spec of specs) await planVisits(b, spec, now);
        await numberVisits(b);
      });
      const {
        rows: [first],
      } = await b.query(`SELECT min(at)::text AS at FROM bench_gen.visits`);
      if (first.at) await createLogPartitions(b, new Date(first.at).toISOString());
      await phase('[B] link events', async () => {
        for (const spec of specs) await insertEvents(b, spec);
        await b.query(`ANALYZE link_events`);
      });
    })();
    /** @type {import('./shared-work').Task[]} */
    const logTasks = [
      async (db) => {
        await insertDistinctValues(db);
        await db.query(`ANALYZE link_distinct_values`);
        await updateLinkRollups(db, now);
      },
      // The facets of the hourly aggregates next, ahead of what is left.
      async (db) => {
        await aggregateEventHours(db, null);
        logTasks.unshift(...facetTasks(null));
      },
      insertEventIds,
      insertLinkSessions,
    ];
    await Promise.all([
      (async () => {
        await phase('[A] people: SQL aggregates', () => stagePeople(a));
        await phase('[A] people: intent scores (intent.ts, streamed)', () => computeIntent(a, now));
        await phase('[A] people and accounts', async () => {
          await insertPeople(a, now);
          await a.query(`ANALYZE people`);
          await insertAccounts(a);
        });
        await phase('[A] sessions (100k rows per statement)', () => insertSessions(a, specs));
        await phase('[A] transcripts', async () => {
          for (const spec of specs) await insertTranscripts(a, spec);
        });
        await logWritten;
        await phase('[A] event aggregates, link rollups (what [B] has not taken)', () => shareWork([a], logTasks));
      })(),
      (async () => {
        await logWritten;
        await phase('[B] event aggregates, link rollups', () => shareWork([b], logTasks));
      })(),
    ]);
    await phase('derived tables (sessions and links done)', () => rebuildDerivedTables(a));
    await phase('indexes (two connections)', () => restoreIndexes([a, b], deferredIndexes));
    await phase('drop work tables, VACUUM ANALYZE (two connections)', async () => {
      await a.query(`DROP SCHEMA bench_gen CASCADE`);
      /**
       * @param {Client} db
       * @param {string[]} tables
       */
      const vacuum = async (db, tables) => {
        for (const table of tables) await db.query(`VACUUM ANALYZE ${table}`);
      };
      await Promise.all([
        vacuum(a, [
          'sessions',
          'session_emails',
          'session_counts',
          'session_day_counts',
          'session_hour_counts',
          'session_day_totals',
          'session_hour_totals',
          'campaign_engagement',
          'session_transcripts',
          'people',
          'accounts',
          'campaigns',
          'custom_link_jobs',
          'custom_link_job_items',
        ]),
        // The event aggregates too: analytics reads them index-only, which needs the visibility map
        // (unvacuumed, a 90-day top-accounts question fetched 850,000 heap rows: 2.4 s, not 0.65).
        vacuum(b, [
          'link_events',
          'link_event_ids',
          'link_event_hours',
          'event_facet_hours',
          'event_facet_days',
          'link_distinct_values',
          'link_sessions',
          'custom_links',
          'custom_link_search',
        ]),
      ]);
    });
    await phase("email gram shares (the workers' sweep, compiled)", async () => {
      log(`  sampled ${await sampleEmailGrams(a)} organizations`);
    });
    await phase('verification (service rules, compiled)', () => verify(a, specs));
    if (onCitus()) await phase('Citus: the distribution step (db:distribute)', () => distribute(url));
    const manifest = await phase('manifest', async () => {
      const counts = await countsOf(a, main);
      /** @param {import('./manifest').Counts} c */
      const describe = (c) =>
        Object.entries(c)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ');
      log(`  main organization: ${describe(counts)}`);
      if (tenant) log(`  tenant: ${describe(await countsOf(a, tenant.id))}`);
      const databaseBytes = Number(
        (await a.query(`SELECT pg_database_size(current_database()) AS bytes`)).rows[0].bytes,
      );
      log(`  database size ${(databaseBytes / 2 ** 30).toFixed(2)} GiB`);
      /** @type {import('./manifest').Manifest} */
      const built = {
        database: flags.database,
        databaseUrl: url,
        builtAt: new Date().toISOString(),
        buildSeconds: Math.round((Date.now() - started) / 1000),
        generatorVersion: GENERATOR_VERSION,
        now,
        flags,
        scale,
        organizationId: main,
        apiKey,
        smallOrganizationIds: ids.small,
        counts,
        databaseBytes,
        eventIdFormat: "'ev-' + 9-digit zero-padded number, unique per organization",
        sample: await sampleFor(a, specs[0], largeCampaigns.get(main)),
        tenant: tenant && tenantApiKey ? await tenantManifest(a, tenant, tenantApiKey) : null,
        buildResources: await buildResources(a, b),
      };
      return built;
    });
    manifest.buildSeconds = Math.round((Date.now() - started) / 1000);
    manifest.phaseSeconds = Object.fromEntries(timings.map((t) => [t.phase, Math.round(t.seconds * 10) / 10]));
    const { generatorPeakRssMiB, backends } = manifest.buildResources;
    log(
      `  generator peak RSS ${generatorPeakRssMiB} MiB; PostgreSQL sessions: ${backends
        .map(
          (b) =>
            `work_mem ${b.workMem}, maintenance_work_mem ${b.maintenanceWorkMem}, ` +
            `peak RSS ${b.peakRssMiB ?? '?'} MiB`,
        )
        .join('; ')}`,
    );
    await storeManifest(admin, manifest, manifestFile);
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
}

async function main() {
  const { flags, scale, rebuild, manifest } = parseFlags(process.argv.slice(2));
  assertJsonSafeVocabulary();
  if (!fs.existsSync(path.join(DIST, 'cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first (or `npm run bench:data`)');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    if (!rebuild && (await reuse(admin, flags, manifest))) return;
    await build(admin, flags, scale, manifest);
  } finally {
    await admin.end();
    console.error('\nphase timings:');
    for (const { phase: name, seconds } of timings) console.error(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
    console.error(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s  total`);
  }
}

module.exports = { main };
