#!/usr/bin/env node
// Benchmark dataset generator: builds (or reuses) a realistic PostgreSQL database for the bench
// runners, through the service's own schema (its migrations) and CLI (organizations, API key), with
// set-based SQL for the bulk, and derived rows (people, accounts, link rollups, distinct values,
// session references) consistent with the service's rules. It verifies a sample against the
// service's compiled rule code and writes a manifest (bench/.dataset.json) for the runners.
//
// Usage:
//   npm run bench:data                      (= npm run build && node bench/data.js)
//   node bench/data.js [flags]              (after npm run build)
// Flags (defaults in brackets):
//   --scale N [1]               the main organization N times larger: sessions, people, accounts, links and
//                               campaigns × N, events × (N + 2) / 3 (20 M at 10); database engagement_bench_xN.
//                               The flags below give the sizes at --scale 1 and override the scaled ones.
//   --sessions N [1000000]      visible sessions of the main organization (plus ~2 % staging/pending)
//   --people N [300000]         distinct people (email keys) among them
//   --accounts N [50000]        business domains (companies) the people work at
//   --links N [200000]          Custom Links of the main organization
//   --campaigns N [20]          campaigns; one holds --large-campaign links, the others share the rest
//   --large-campaign N [50000]
//   --events N [5000000]        link events of the main organization
//   --transcripts F [0.01]      share of visible sessions with a transcript
//   --small-orgs N [9]          small neighbouring organizations ...
//   --small-sessions N [2000]   ... with this many sessions each (and a few links and events)
//   --tenant-sessions N [100000] a tenant beside the main organization, shaped like it (0 = none); the
//                               manifest's `tenant` has its organization, API key, counts and email substrings
//   --database NAME [engagement_bench]
//   --rebuild                   rebuild even when the database already matches the flags
//   --manifest PATH             [bench/.dataset.json, or bench/.dataset.<database>.json]
// Environment: BENCH_ADMIN_DATABASE_URL [postgres://postgres@127.0.0.1:5432/postgres]; BENCH_CITUS_WORKERS
//   (host:port,…): that server is a Citus coordinator with these workers, and the loaded dataset is
//   distributed by the service's `db:distribute` (docs/scaling.md, Citus against one PostgreSQL).
// Smoke size: --sessions 2000 --people 600 --accounts 100 --links 400 --campaigns 3 --large-campaign 200
//   --events 5000 --small-orgs 2 --small-sessions 50 --tenant-sessions 300 --database engagement_bench_smoke
// Without --rebuild, a database whose stored manifest (COMMENT ON DATABASE) has the same flags is
// reused: pending migrations are run and the manifest file is rewritten. Otherwise the database is
// dropped (WITH FORCE) and rebuilt: 7 to 13 minutes at the default size on 2 cores, as fast as the
// machine (bench/RESULTS.md), a few seconds at the smoke size (mostly the CLI and migrations).
// Memory is bounded: every bulk step is set-based SQL in chunks, the generator holds no per-row data
// (the manifest's buildResources has its peak RSS and the PostgreSQL sessions' memory settings).
// Sessions of all organizations are written interleaved in start-time order, as production writes them.
// The tables derived from sessions and links (session counts, email search, campaign figures, link
// search copy) are not written row by row during the load: the tables' user triggers are off, and the
// derived tables are recounted set-based afterwards, then verified against the recount
// (bench/data/derived-tables.js). The bulk-loaded tables' indexes that no foreign key uses are
// dropped for the load and created again after it, the same definitions (deferred-indexes.js); the
// work runs on two connections, each taking the next piece when free (shared-work.js).
// Phase timings go to stderr (BENCH_DATA_TRACE=1 also logs every statement over a second); exit 1
// when verification finds any mismatch with the service's rules (the manifest is then not written).
// The code lives in bench/data/ (main.js runs the phases; one module per part of the dataset,
// verify*.js the checks against the service's rules, manifest.js the manifest).
'use strict';
const { main } = require('./data/main');
const { VerificationError } = require('./data/verify');

main().catch((error) => {
  console.error(error instanceof VerificationError ? `verification failed: ${error.message}` : error);
  process.exit(1);
});
