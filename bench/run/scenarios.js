// The scenarios, in run order, and their targets.
'use strict';
const { foldCaughtUp, recountRollups, watchFold } = require('../ingest-recount');

const MAX_OFFSET = 1_000_000; // PaginationQuery's bound
const EVENT_BATCH = 1000;
/**
 * Issue 35: a read's tail (p99 ÷ p50) within this many times its raw baseline's tail in the same run
 * (the machine's own tail, which a fixed bound on p99 ÷ p50 ignored).
 */
const TAIL_FACTOR = 1.2;

/** @param {number} n */
const fmt = (n) => Number(n).toLocaleString('en-US');

/**
 * @typedef {Record<string, unknown>} Figures  What targets judge: a scenario's row, a job's outcome, the mixed row.
 * @typedef {(key: string) => Figures | undefined} RowOf  Another scenario's row of the run, by its key.
 */

/**
 * @typedef {object} Target
 * @property {string} label
 * @property {'<=' | '>='} op
 * @property {number} limit
 * @property {string} [needs]  The key of the scenario whose row the value reads.
 * @property {(values: Figures, rowOf: RowOf) => number | null} value
 */

/**
 * @typedef {object} LoadScenario
 * @property {string} key  Its name before any rename: what relative targets refer to.
 * @property {string} name
 * @property {string[]} paths
 * @property {boolean} [baseline]  Also run against the raw baseline (ABBA).
 * @property {boolean} [sameHeaders]  A single-row read: the service and the baseline must answer with the same header names.
 * @property {boolean} [read]
 * @property {Target[]} targets
 * @property {string} [apiKey]  Else the manifest's.
 * @property {number} [connections]
 * @property {number} [minSeconds]  Of the measured window.
 * @property {import('./requests').EventsSpec} [events]  POST bodies.
 * @property {number} [expectStatus]  The status every answer must have (else any 2xx); the preflight reads no body.
 * @property {(body: any) => string | null} [check]  A problem with a preflight answer, or null.
 * @property {(body: any) => string} [rename]
 * @property {(context: { manifest: Manifest, runTag: string }) => { stop: () => Promise<Figures> }} [watch]
 *   Started before the scenario's runs (warm-ups included) and stopped after them; its figures join the row.
 * @property {(context: { row: Figures, runs: object[], manifest: Manifest, runTag: string }) => Promise<Figures>} [finish]
 *   Run after the load; the figures it returns join the row (and its targets' values).
 */

/** @typedef {import('../data/manifest').Manifest} Manifest */
/** @typedef {import('../../client/index').components['schemas']} Schemas */

/**
 * A figure of `values` that is a number, else null.
 * @param {Figures | undefined} values
 * @param {string} metric
 */
const figure = (values, metric) => {
  const value = values?.[metric];
  return typeof value === 'number' ? value : null;
};

/**
 * `a / b` when both are known and b is positive, else null.
 * @param {number | null} a
 * @param {number | null} b
 */
const quotient = (a, b) => (a !== null && b !== null && b > 0 ? a / b : null);

// ---------------------------------------------------------------- targets
// A target: its text (`label`), the value it judges (`value(values, rowOf)`: this scenario's
// figures, and the rows of the run by scenario key for relative targets), and its bound.

/**
 * @param {Target['op']} op
 * @param {number} value
 * @param {number} limit
 */
const compare = (op, value, limit) => (op === '<=' ? value <= limit : value >= limit);
/** @param {Target['op']} op */
const sign = (op) => (op === '<=' ? '≤' : '≥');

/**
 * A figure of the scenario against a fixed bound.
 * @param {string} metric
 * @param {Target['op']} op
 * @param {number} limit
 * @param {string} [unit]
 * @returns {Target}
 */
function bound(metric, op, limit, unit = '') {
  /** @type {Record<string, string>} */
  const named = { ratio: 'ratio ', p50_ms: 'p50 ', p99_ms: 'p99 ', events_per_s: '', seconds: '', peak_rss_mb: '' };
  const label = named[metric] ?? `${metric} `;
  return { label: `${label}${sign(op)} ${fmt(limit)}${unit}`, op, limit, value: (values) => figure(values, metric) };
}
/**
 * @param {string} metric
 * @param {number} limit
 * @param {string} [unit]
 */
const atMost = (metric, limit, unit = ' ms') => bound(metric, '<=', limit, unit);
/**
 * @param {string} metric
 * @param {number} limit
 * @param {string} [unit]
 */
const atLeast = (metric, limit, unit = '') => bound(metric, '>=', limit, unit);

/**
 * Against its raw baseline, in the same run.
 * @param {number} limit
 */
const ratioAtLeast = (limit) => atLeast('ratio', limit);

/**
 * A steady tail: p99 ÷ p50 within TAIL_FACTOR × the raw baseline's p99 ÷ p50 in the same run (the
 * value is the quotient of the two tails).
 * @returns {Target}
 */
const steadyTail = () => ({
  label: `p99/p50 ≤ ${TAIL_FACTOR} × raw p99/p50`,
  op: '<=',
  limit: TAIL_FACTOR,
  value: (v) => quotient(figure(v, 'tail'), figure(v, 'baseline_tail')),
});

/**
 * p99 within `factor` × another scenario's p99 in the same run (the value is the quotient).
 * @param {number} factor
 * @param {string} key
 * @returns {Target}
 */
const p99WithinOf = (factor, key) => ({
  label: `p99 ≤ ${factor} × ${key} p99`,
  op: '<=',
  limit: factor,
  needs: key,
  value: (v, rowOf) => quotient(figure(v, 'p99_ms'), figure(rowOf(key), 'p99_ms')),
});

/**
 * p99 within `factor` × the raw baseline's p99 in the same run (the value is the quotient).
 * @param {number} factor
 * @returns {Target}
 */
const p99WithinBaseline = (factor) => ({
  label: `p99 ≤ ${factor} × raw p99`,
  op: '<=',
  limit: factor,
  value: (v) => quotient(figure(v, 'p99_ms'), figure(v, 'baseline_p99_ms')),
});

/**
 * During a job against alone (the mixed scenario's own figures); no value when the job ended before the window did.
 * @param {number} factor
 * @returns {Target}
 */
const p99DuringWithin = (factor) => ({
  label: `p99 during ≤ ${factor} × p99 alone`,
  op: '<=',
  limit: factor,
  value: (v) => (v.window_inside_job ? quotient(figure(v, 'p99_during_ms'), figure(v, 'p99_alone_ms')) : null),
});

/**
 * The targets' verdicts on `values`: a value rounded to the hundredth, and whether it meets its bound.
 * @param {string} name
 * @param {Target[]} targets
 * @param {Figures} values
 * @param {RowOf} [rowOf]
 */
function evaluate(name, targets, values, rowOf = () => undefined) {
  return targets.map((target) => {
    const raw = target.value(values, rowOf);
    const value = raw === null || raw === undefined || !Number.isFinite(raw) ? null : Math.round(raw * 100) / 100;
    return { name, target: target.label, value, met: value !== null && compare(target.op, value, target.limit) };
  });
}

// ---------------------------------------------------------------- load scenarios

/**
 * A hot read: measured against the service and its raw baseline (ABBA), with a steady-tail target
 * relative to the baseline's.
 * `paths` are the requests (one picked at random per request).
 * @param {string} key
 * @param {string[]} paths
 * @param {Target[]} targets
 * @param {Partial<LoadScenario>} [more]
 * @returns {LoadScenario}
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

/** The single-row reads (issue 35 point 5): like for like with their baseline, header names included. */
const SINGLE_ROW = { sameHeaders: true };

/**
 * Issue 33 point 3: the analytics questions users ask most, each at 10 concurrent requests against
 * the raw SQL baseline (the service's statements for the question, computed on every request, where
 * the service keeps answers of its aggregates until they change), ranges ending at the current whole
 * hour (the aggregates answer them; a question of event counts over whole hours is what dashboards send).
 * @param {string} campaignId  the large campaign
 * @returns {LoadScenario[]}
 */
function analyticsScenarios(campaignId) {
  const hour = 3_600_000;
  const to = new Date(Math.floor(Date.now() / hour) * hour);
  const daysBefore = (/** @type {number} */ days) => new Date(to.getTime() - days * 24 * hour).toISOString();
  /** @param {Record<string, string>} query */
  const ask = (query) => `/api/v1/analytics?${new URLSearchParams({ ...query, to: to.toISOString() })}`;
  const targets = [ratioAtLeast(0.9), atMost('p99_ms', 150)];
  const more = { connections: 10 };
  return [
    hotRead(
      'analytics: 30-day daily series',
      [ask({ metrics: 'opens,loads,leads,meetingsBooked', group_by: 'time', interval: 'day', from: daysBefore(30) })],
      targets,
      more,
    ),
    hotRead(
      "analytics: a campaign's 7-day hourly series",
      [
        ask({
          metrics: 'opens,loads',
          group_by: 'time',
          interval: 'hour',
          campaign_id: campaignId,
          from: daysBefore(7),
        }),
      ],
      targets,
      more,
    ),
    hotRead(
      'analytics: countries over 90 days',
      [ask({ metrics: 'opens,loads', group_by: 'country', from: daysBefore(90) })],
      targets,
      more,
    ),
    hotRead(
      'analytics: top 20 accounts over 90 days',
      [ask({ metrics: 'opens,meetingsBooked', group_by: 'account_domain', limit: '20', from: daysBefore(90) })],
      targets,
      more,
    ),
  ];
}

/**
 * The load scenarios, in run order (reads first; event ingestion last, since it writes). Each has a
 * `key` (its name before any rename, which relative targets refer to). Optional: `apiKey` (else the
 * manifest's), `connections`, `minSeconds` (of the measured window), `events` (POST bodies), `check(body)` on a preflight answer,
 * `rename(body)`, and `finish({ row, manifest, runTag })`, run after the load, whose returned
 * figures join the scenario's row (and its targets' values).
 * @param {Manifest} manifest
 * @param {string} runTag
 * @returns {LoadScenario[]}
 */
function loadScenarios(manifest, runTag) {
  const { sample, counts, tenant } = manifest;
  const lastPage = Math.min(MAX_OFFSET, Math.max(0, counts.sessions - 50));
  /** @param {string} query */
  const sessions = (query) => `/api/v1/sessions${query}`;
  /** @param {string[]} substrings */
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
    // The deepest page an offset reaches (the last, up to the offset cap): one key at every dataset
    // size, so that the scale report compares it across sizes.
    hotRead(
      'sessions at the deepest offset',
      [sessions(`?offset=${lastPage}`)],
      [ratioAtLeast(0.9), atMost('p50_ms', 200)],
      {
        name: `sessions at offset ${fmt(lastPage)}`,
      },
    ),
    hotRead(
      'session detail',
      sample.sessionIds.map((id) => `/api/v1/sessions/${id}`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
      SINGLE_ROW,
    ),
    hotRead(
      'transcript',
      sample.transcriptSessionIds.map((id) => `/api/v1/sessions/${id}/transcript`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
      SINGLE_ROW,
    ),
    hotRead('people list', ['/api/v1/people'], [ratioAtLeast(0.9)]),
    hotRead(
      'account',
      sample.accountDomains.map((domain) => `/api/v1/accounts/${encodeURIComponent(domain)}`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
      SINGLE_ROW,
    ),
    hotRead(
      'link detail',
      sample.linkIds.map((id) => `/api/v1/custom-links/${id}`),
      [ratioAtLeast(0.9), atMost('p99_ms', 20)],
      SINGLE_ROW,
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
        rename: (/** @type {Schemas['CampaignEngagementResponse']} */ body) =>
          `campaign engagement (${fmt(body.generatedLinkCount)} links)`,
      },
    ),
    ...analyticsScenarios(sample.largeCampaignId),
    {
      // The prospect's first impression (issue 32 point 6): the lookup, the open queued, the redirect.
      key: 'link redirect',
      name: 'link redirect (GET /l/{slug})',
      paths: (sample.slugs ?? []).map((slug) => `/l/${slug}`),
      baseline: true,
      ...SINGLE_ROW,
      // Run ABBA like a read: each open only adds an event, so the runs' order changes nothing.
      read: true,
      expectStatus: 302,
      targets: [ratioAtLeast(0.9), p99WithinBaseline(1.2), steadyTail()],
    },
    {
      key: 'event ingestion',
      name: `event ingestion (batches of ${EVENT_BATCH})`,
      paths: ['/api/v1/events'],
      events: { linkIds: sample.linkIds, tag: runTag, batch: EVENT_BATCH },
      connections: 20,
      // A batch may take a second on a busy machine: a one-second window (--smoke) could count none.
      minSeconds: 3,
      check: (/** @type {Schemas['EventsResponse']} */ body) =>
        body.accepted === EVENT_BATCH
          ? null
          : `accepted ${body.accepted} of ${EVENT_BATCH} (rejected: ${JSON.stringify(body.rejected).slice(0, 200)})`,
      // While the load runs: the fold's lag (now − the oldest appended batch not folded) and PostgreSQL's CPU.
      watch: () => watchFold(manifest.databaseUrl, manifest.organizationId),
      // The links' and campaigns' rollups against a recount from the stored events (bench/ingest-recount.js).
      finish: async ({ row }) => {
        // The fold catches up first (every appended batch folded), then the recount.
        const catchUpMs = await foldCaughtUp(manifest.databaseUrl, manifest.organizationId, 300_000);
        const recount = await recountRollups(manifest.databaseUrl, manifest.organizationId, sample.linkIds);
        const eventsPerS = Math.round((figure(row, 'rps') ?? 0) * EVENT_BATCH);
        const pgCpu = figure(row, 'postgres_cpu_s');
        const loadSeconds = figure(row, 'load_seconds');
        // A mismatch misses the target `rollup_mismatches ≤ 0` (and fails --check); the first few are in the results.
        return {
          events_per_s: eventsPerS,
          postgres_cpu_ms_per_1000_events:
            pgCpu !== null && loadSeconds && eventsPerS > 0
              ? Math.round((pgCpu * 1000) / ((eventsPerS * loadSeconds) / 1000))
              : null,
          batch_size: EVENT_BATCH,
          rollup_mismatches: recount.mismatchCount,
          fold_catch_up_ms: catchUpMs,
          recount,
        };
      },
      targets: [
        atLeast('events_per_s', 20_000, ' events/s'),
        atMost('rollup_mismatches', 0, ''),
        atMost('fold_lag_p99_ms', 2000),
        atMost('fold_lag_max_ms', 5000),
      ],
    },
  ];
}

// ---------------------------------------------------------------- jobs

/**
 * @typedef {{ name: string, thumbnails: boolean, targets: Target[] }} JobScenario
 * @typedef {{ name: string, path: string, targets: Target[] }} MixedScenario
 */

/**
 * The link creation jobs, then the mixed scenario (the sessions list while a job renders its cards).
 * @param {number} jobLinks
 * @returns {JobScenario[]}
 */
function jobScenarios(jobLinks) {
  return [
    { name: `${jobLinks}-link job, thumbnails provided`, thumbnails: false, targets: [atMost('seconds', 10, ' s')] },
    { name: `${jobLinks}-link job, thumbnails rendered`, thumbnails: true, targets: [atMost('seconds', 8, ' s')] },
  ];
}

// Not named "sessions list", so that --only "sessions list" does not start jobs.
/**
 * @param {number} jobLinks
 * @returns {MixedScenario}
 */
const mixedScenario = (jobLinks) => ({
  name: `mixed: /api/v1/sessions during a ${jobLinks}-card job`,
  path: '/api/v1/sessions',
  targets: [p99DuringWithin(1.25)],
});

/**
 * The scenarios --only selects by name, with the scenarios their relative targets need.
 * @param {LoadScenario[]} scenarios
 * @param {string | null} only
 */
function selectScenarios(scenarios, only) {
  /** @param {string} name */
  const named = (name) => only === null || name.toLowerCase().includes(only);
  const chosen = scenarios.filter((s) => named(s.name));
  const needed = new Set(chosen.flatMap((s) => s.targets.map((t) => t.needs).filter(Boolean)));
  return scenarios.filter((s) => chosen.includes(s) || needed.has(s.key));
}

module.exports = { EVENT_BATCH, atMost, evaluate, loadScenarios, jobScenarios, mixedScenario, selectScenarios };
