// The scenarios, in run order, and their targets.
'use strict';
const { recountRollups } = require('../ingest-recount');

const MAX_OFFSET = 1_000_000; // PaginationQuery's bound
const EVENT_BATCH = 500;
/** Issue 21: every read at 20 connections keeps p99 within this many p50s. */
const TAIL_FACTOR = 2.5;

const fmt = (n) => Number(n).toLocaleString('en-US');

// ---------------------------------------------------------------- targets
// A target: its text (`label`), the value it judges (`value(values, rowOf)`: this scenario's
// figures, and the rows of the run by scenario key for relative targets), and its bound.

const compare = (op, value, limit) => (op === '<=' ? value <= limit : value >= limit);
const sign = (op) => (op === '<=' ? '≤' : '≥');

/** A figure of the scenario against a fixed bound. */
function bound(metric, op, limit, unit = '') {
  const label =
    { ratio: 'ratio ', p50_ms: 'p50 ', p99_ms: 'p99 ', events_per_s: '', seconds: '', peak_rss_mb: '' }[metric] ??
    `${metric} `;
  return { label: `${label}${sign(op)} ${fmt(limit)}${unit}`, op, limit, value: (values) => values[metric] ?? null };
}
const atMost = (metric, limit, unit = ' ms') => bound(metric, '<=', limit, unit);
const atLeast = (metric, limit, unit = '') => bound(metric, '>=', limit, unit);

/** Against its raw baseline, in the same run. */
const ratioAtLeast = (limit) => atLeast('ratio', limit);

/** A steady tail: p99 within TAIL_FACTOR × p50 (the value is p99 / p50). */
const steadyTail = () => ({
  label: `p99 ≤ ${TAIL_FACTOR} × p50`,
  op: '<=',
  limit: TAIL_FACTOR,
  value: (v) => (v.p50_ms > 0 && v.p99_ms !== null ? v.p99_ms / v.p50_ms : null),
});

/** p99 within `factor` × another scenario's p99 in the same run (the value is the quotient). */
const p99WithinOf = (factor, key) => ({
  label: `p99 ≤ ${factor} × ${key} p99`,
  op: '<=',
  limit: factor,
  needs: key,
  value: (v, rowOf) => {
    const other = rowOf(key);
    return other?.p99_ms > 0 && v.p99_ms !== null ? v.p99_ms / other.p99_ms : null;
  },
});

/** During a job against alone (the mixed scenario's own figures); no value when the job ended before the window did. */
const p99DuringWithin = (factor) => ({
  label: `p99 during ≤ ${factor} × p99 alone`,
  op: '<=',
  limit: factor,
  value: (v) =>
    v.window_inside_job && v.p99_alone_ms > 0 && v.p99_during_ms !== null ? v.p99_during_ms / v.p99_alone_ms : null,
});

function evaluate(name, targets, values, rowOf = () => undefined) {
  return targets.map((target) => {
    const raw = target.value(values, rowOf);
    const value = raw === null || raw === undefined || !Number.isFinite(raw) ? null : Math.round(raw * 100) / 100;
    return { name, target: target.label, value, met: value !== null && compare(target.op, value, target.limit) };
  });
}

// ---------------------------------------------------------------- load scenarios

/**
 * A hot read: measured against the service and its raw baseline (ABBA), with a steady-tail target.
 * `paths` are the requests (one picked at random per request).
 */
const hotRead = (key, paths, targets, more = {}) => ({
  key,
  name: key,
  paths,
  baseline: true,
  read: true,
  targets: [...targets, steadyTail()],
  ...more,
});

/**
 * The load scenarios, in run order (reads first; event ingestion last, since it writes). Each has a
 * `key` (its name before any rename, which relative targets refer to). Optional: `apiKey` (else the
 * manifest's), `connections`, `minSeconds` (of the measured window), `events` (POST bodies), `check(body)` on a preflight answer,
 * `rename(body)`, and `finish({ row, manifest, runTag })`, run after the load, whose returned
 * figures join the scenario's row (and its targets' values).
 */
function loadScenarios(manifest, runTag) {
  const { sample, counts, tenant } = manifest;
  const lastPage = Math.min(MAX_OFFSET, Math.max(0, counts.sessions - 50));
  const sessions = (query) => `/api/v1/sessions${query}`;
  const byEmail = (substrings) => substrings.map((s) => sessions(`?email=${encodeURIComponent(s)}`));
  return [
    hotRead('sessions list', [sessions('')], [ratioAtLeast(0.9), atMost('p99_ms', 50)]),
    hotRead(
      'sessions filtered by buying_intent + qualification_status',
      [sessions('?buying_intent=high&qualification_status=qualified')],
      [ratioAtLeast(0.9), atMost('p99_ms', 100)],
    ),
    hotRead('sessions filtered by email substring', byEmail(sample.emailSubstrings), [
      ratioAtLeast(0.9),
      atMost('p99_ms', 100),
    ]),
    ...(tenant
      ? [
          hotRead(
            `sessions of the ${fmt(tenant.counts.sessions)}-session tenant filtered by email substring`,
            byEmail(tenant.sample.emailSubstrings),
            [ratioAtLeast(0.9), p99WithinOf(2, 'sessions list')],
            {
              apiKey: tenant.apiKey,
            },
          ),
        ]
      : []),
    hotRead(
      `sessions at offset ${fmt(lastPage)}`,
      [sessions(`?offset=${lastPage}`)],
      [ratioAtLeast(0.9), atMost('p50_ms', 200)],
    ),
    hotRead(
      'session detail',
      sample.sessionIds.map((id) => `/api/v1/sessions/${id}`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
    ),
    hotRead(
      'transcript',
      sample.transcriptSessionIds.map((id) => `/api/v1/sessions/${id}/transcript`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
    ),
    hotRead('people list', ['/api/v1/people'], [ratioAtLeast(0.9)]),
    hotRead(
      'account',
      sample.accountDomains.map((domain) => `/api/v1/accounts/${encodeURIComponent(domain)}`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
    ),
    hotRead(
      'custom links by last activity',
      ['/api/v1/custom-links?sort=last_activity_at&order=desc'],
      [ratioAtLeast(0.9)],
    ),
    hotRead(
      'campaign engagement',
      [`/api/v1/custom-link-campaigns/${sample.largeCampaignId}/engagement`],
      [atMost('p50_ms', 100)],
      {
        // Named after the links it aggregates, as the service counts them.
        rename: (body) => `campaign engagement (${fmt(body.generatedLinkCount)} links)`,
      },
    ),
    {
      key: 'event ingestion',
      name: `event ingestion (batches of ${EVENT_BATCH})`,
      paths: ['/api/v1/events'],
      events: { linkIds: sample.linkIds, tag: runTag, batch: EVENT_BATCH },
      connections: 6,
      // A batch may take a second on a busy machine: a one-second window (--smoke) could count none.
      minSeconds: 3,
      check: (body) =>
        body.accepted === EVENT_BATCH
          ? null
          : `accepted ${body.accepted} of ${EVENT_BATCH} (rejected: ${JSON.stringify(body.rejected).slice(0, 200)})`,
      // The links' and campaigns' rollups against a recount from the stored events (bench/ingest-recount.js).
      finish: async ({ row }) => {
        const recount = await recountRollups(manifest.databaseUrl, manifest.organizationId, sample.linkIds);
        // A mismatch misses the target `rollup_mismatches ≤ 0` (and fails --check); the first few are in the results.
        return {
          events_per_s: Math.round(row.rps * EVENT_BATCH),
          batch_size: EVENT_BATCH,
          rollup_mismatches: recount.mismatchCount,
          recount,
        };
      },
      targets: [atLeast('events_per_s', 20_000, ' events/s'), atMost('rollup_mismatches', 0, '')],
    },
  ];
}

// ---------------------------------------------------------------- jobs

/** The link creation jobs, then the mixed scenario (the sessions list while a job renders its cards). */
function jobScenarios(jobLinks) {
  return [
    { name: `${jobLinks}-link job, thumbnails provided`, thumbnails: false, targets: [atMost('seconds', 10, ' s')] },
    { name: `${jobLinks}-link job, thumbnails rendered`, thumbnails: true, targets: [atMost('seconds', 8, ' s')] },
  ];
}

// Not named "sessions list", so that --only "sessions list" does not start jobs.
const mixedScenario = (jobLinks) => ({
  name: `mixed: /api/v1/sessions during a ${jobLinks}-card job`,
  path: '/api/v1/sessions',
  targets: [p99DuringWithin(1.25)],
});

/** The scenarios --only selects by name, with the scenarios their relative targets need. */
function selectScenarios(scenarios, only) {
  const named = (name) => only === null || name.toLowerCase().includes(only);
  const chosen = scenarios.filter((s) => named(s.name));
  const needed = new Set(chosen.flatMap((s) => s.targets.map((t) => t.needs).filter(Boolean)));
  return scenarios.filter((s) => chosen.includes(s) || needed.has(s.key));
}

module.exports = { EVENT_BATCH, atMost, evaluate, loadScenarios, jobScenarios, mixedScenario, selectScenarios };
