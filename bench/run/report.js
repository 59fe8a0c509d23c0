// What a run prints, and the "Latest run" section it writes into bench/RESULTS.md.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { API_NODE_OPTIONS, WORKER_NICE } = require('./processes');

const RESULTS_MD = path.join(__dirname, '../RESULTS.md');
const MARK_START = '<!-- bench:latest:start -->';
const MARK_END = '<!-- bench:latest:end -->';

/**
 * @typedef {import('./measure').ScenarioRow} ScenarioRow
 * @typedef {ReturnType<typeof import('./scenarios').evaluate>[number]} Verdict  A target's verdict.
 */

/**
 * @typedef {ScenarioRow & { rps_alone: number, p50_alone_ms: number | null, p99_alone_ms: number | null,
 *   p99_during_ms: number | null, window_seconds: number, window_inside_job: boolean, job_seconds: number | null,
 *   job_status: string }} MixedRow  The sessions list alone and during a job.
 */

/**
 * @typedef {object} Results  What a run writes into its results file (bench/results/*.json) and reports.
 * @property {(ScenarioRow & import('./scenarios').Figures)[]} scenarios
 * @property {Verdict[]} targets
 * @property {Omit<import('./jobs').JobOutcome, 'failure'>[]} jobs
 * @property {MixedRow | null} mixed
 * @property {{ events_per_s: unknown, batch_size: unknown, connections: number } | null} events
 * @property {number | null} peak_rss_mb
 * @property {number} instances
 * @property {{ database: string, builtAt: string, buildSeconds: number, counts: import('../data/manifest').Counts,
 *   flags: object, tenant?: { organizationId: string, counts: import('../data/manifest').Counts } }} dataset
 * @property {string} command
 * @property {string} started_at
 * @property {{ cpus: number, node: string, postgres: string }} machine
 * @property {boolean} smoke
 * @property {object} settings
 * @property {{ vmhwm_mb: number | null, sampled_vmrss_mb: number | null, peak_rss_mb: number | null }} rss
 * @property {object[]} runs
 * @property {{ name: string, server: string, failure: string }[]} failures
 */

/** How the ratios are defined; the runner's header says the same. */
const RAW_BASELINE =
  'The raw baseline (`bench/raw-server.js`) is the service without its framework: the built modules booted as a Nest application context (no HTTP adapter) ' +
  'and answered on node:http by calling the very service methods the controllers call, so the same SQL, repositories, pool, count strategy (the Redis count cache), ' +
  "cursors and response mapping; per request it also does the work around them with the service's own code: the request id and security headers (helmet's set, Cache-Control), " +
  "the key through the service's ApiKeyGuard and principal cache, the scope check, one rate-limit round trip to Redis on the RateLimitGuard's storage with the X-RateLimit-* headers, " +
  "and a transcript read charges the daily quota in its statement as the service's does. Each single-row read's answer has the same header names on both sides (checked in the run). " +
  'It leaves out express and Nest’s request pipeline (routing, the other guards, pipes and validation, the exception filter), logging and metrics. ' +
  '`ratio` = service req/s ÷ raw req/s, measured service, raw, raw, service in one run (each side the mean of its two runs). ' +
  'Tails: p99 / p50 of each side in the same run; target: the service’s within 1.2 × the raw baseline’s.';

/**
 * p99 ÷ p50, or null when either is missing.
 * @param {number | null | undefined} p99
 * @param {number | null | undefined} p50
 */
const tailRatio = (p99, p50) =>
  p99 === null || p99 === undefined || !p50 ? null : Math.round((p99 / p50) * 100) / 100;
/**
 * @param {unknown} value
 * @param {number} [digits]
 */
const fmt = (value, digits = 0) =>
  value === null || value === undefined
    ? '–'
    : Number(value).toLocaleString('en-US', { maximumFractionDigits: digits });

/** @param {Results} results */
function printSummary(results) {
  console.log('');
  console.table(
    results.scenarios.map((s) => ({
      scenario: s.name,
      'req/s': s.rps,
      'p50 ms': s.p50_ms,
      'p99 ms': s.p99_ms,
      'max ms': s.max_ms,
      'raw req/s': s.baseline_rps,
      ratio: s.ratio,
      'CPU ms/req': s.cpu_ms_per_request,
      'raw CPU ms/req': s.baseline_cpu_ms_per_request,
      'p99 / p50': tailRatio(s.p99_ms, s.p50_ms),
      'raw p99 / p50': tailRatio(s.baseline_p99_ms, s.baseline_p50_ms),
      ...(results.instances > 1
        ? { 'one instance req/s': s.rps_one_instance ?? null, scaling: s.scaling ?? null }
        : {}),
    })),
  );
  if (results.jobs.length > 0) console.table(results.jobs);
  for (const line of workerLines(results)) console.log(line);
  if (results.events)
    console.log(
      `event ingestion: ${fmt(results.events.events_per_s)} events/s (${results.events.batch_size} per batch, ${results.events.connections} connections)`,
    );
  console.log(`API peak RSS: ${fmt(results.peak_rss_mb, 1)} MB`);
  for (const t of results.targets)
    console.log(`${t.met ? 'met   ' : 'MISSED'}  ${t.name}: ${t.target} (${fmt(t.value, 2)})`);
  for (const f of results.failures) console.log(`FAILED  ${f.name} (${f.server}): ${f.failure}`);
}

/**
 * @param {Results} results
 * @param {import('./options').Options} opts
 */
function markdownSection(results, opts) {
  /** @param {string} name */
  const targetCells = (name) => {
    const targets = results.targets.filter((t) => t.name === name);
    if (targets.length === 0) return '| | |';
    return `| ${targets.map((t) => `${t.target} (${fmt(t.value, 2)})`).join(', ')} | ${targets.map((t) => (t.met ? 'yes' : 'no')).join(', ')} |`;
  };
  const { counts } = results.dataset;
  const instances = results.instances;
  const tenant = results.dataset.tenant;
  const lines = [
    '## Latest run',
    '',
    `Command: \`${results.command}\`, ${results.started_at.slice(0, 16).replace('T', ' ')} UTC, ${results.machine.cpus} CPUs, Node ${results.machine.node}, PostgreSQL ${results.machine.postgres.split(' ')[0]}.`,
    `Dataset \`${results.dataset.database}\` (bench/data.js, built ${String(results.dataset.builtAt ?? '').slice(0, 10)}): ${fmt(counts.sessions)} sessions, ${fmt(counts.people)} people, ` +
      `${fmt(counts.accounts)} accounts, ${fmt(counts.links)} links, ${fmt(counts.campaigns)} campaigns, ${fmt(counts.events)} events, ${fmt(counts.transcripts)} transcripts` +
      `${tenant ? `; a tenant of ${fmt(tenant.counts.sessions)} sessions beside them` : ''}.`,
    `${instances === 1 ? 'One API process' : `${instances} API processes`} (\`APP_ROLE=api NODE_ENV=production LOG_LEVEL=warn NODE_OPTIONS='${API_NODE_OPTIONS}'\`)` +
      `${instances === 1 ? '' : ', autocannon spreading its connections over their ports in turn (no proxy)'}, ${instances === 1 ? 'the raw baseline' : 'as many raw baselines'}, ` +
      `and for the jobs one worker process under \`nice -n ${WORKER_NICE}\` (standing for production's separate worker pods: it does not take the API's CPU), all on this machine. ` +
      `autocannon runs in a child process of its own: ${opts.warmup} s warm-up then ${opts.seconds} s, ${opts.connections} connections unless noted. ` +
      'CPU ms per request: user + system time of the API process(es) over the measured window ÷ requests served (PostgreSQL not included), a figure that holds on a busy machine. ' +
      `Figures: [\`${path.relative(path.dirname(RESULTS_MD), opts.out)}\`](${path.relative(path.dirname(RESULTS_MD), opts.out)}).`,
    '',
    RAW_BASELINE,
    '',
    '| scenario | req/s | p50 ms | p99 ms (p99 / p50) | max ms | raw req/s | ratio | CPU ms/req (raw) | raw p50 / p99 ms (p99 / p50) | target (value) | met |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.scenarios.map((s) => {
      const noted = s.connections !== opts.connections ? ` (${s.connections} connections)` : '';
      const cpu =
        s.cpu_ms_per_request === null || s.cpu_ms_per_request === undefined
          ? '–'
          : `${fmt(s.cpu_ms_per_request, 2)} (${fmt(s.baseline_cpu_ms_per_request, 2)})`;
      const rawTail =
        s.baseline_p99_ms === null || s.baseline_p99_ms === undefined
          ? '–'
          : `${fmt(s.baseline_p50_ms, 1)} / ${fmt(s.baseline_p99_ms, 1)} (${fmt(tailRatio(s.baseline_p99_ms, s.baseline_p50_ms), 2)})`;
      return `| ${s.name}${noted} | ${fmt(s.rps)} | ${fmt(s.p50_ms, 1)} | ${fmt(s.p99_ms, 1)} (${fmt(tailRatio(s.p99_ms, s.p50_ms), 2)}) | ${fmt(s.max_ms)} | ${fmt(s.baseline_rps)} | ${fmt(s.ratio, 2)} | ${cpu} | ${rawTail} ${targetCells(s.name)}`;
    }),
  ];
  if (instances > 1) {
    lines.push(
      '',
      `Throughput of ${instances} API processes against the first alone (same run, runs interleaved):`,
      '',
    );
    lines.push(
      `| scenario | one instance req/s | ${instances} instances req/s | scaling | p99 ms one / ${instances} |`,
      '|---|---|---|---|---|',
    );
    for (const s of results.scenarios.filter((row) => row.rps_one_instance !== undefined)) {
      lines.push(
        `| ${s.name} | ${fmt(s.rps_one_instance)} | ${fmt(s.rps)} | ${fmt(s.scaling, 2)} | ${fmt(s.p99_ms_one_instance, 1)} / ${fmt(s.p99_ms, 1)} |`,
      );
    }
  }
  if (results.jobs.length > 0) {
    lines.push(
      '',
      'Link creation jobs (from `POST /api/v1/custom-links` to a terminal status, polled every 50 ms):',
      '',
    );
    lines.push(
      '| job | status | links | cards rendered | seconds | target (value) | met |',
      '|---|---|---|---|---|---|---|',
    );
    for (const j of results.jobs)
      lines.push(
        `| ${j.name} | ${j.status} | ${fmt(j.links)} | ${fmt(j.thumbnails_rendered)} | ${fmt(j.seconds, 1)} ${targetCells(j.name)}`,
      );
  }
  const { mixed } = results;
  if (mixed) {
    lines.push(
      '',
      `Mixed scenario (${mixed.name}): the sessions list for ${mixed.window_seconds} s alone, then while a job renders its cards (the window opens once the first card is being drawn; ` +
        `${mixed.window_inside_job ? 'it closed before the job ended' : '**the job ended before the window closed**'}; the job took ${fmt(mixed.job_seconds, 1)} s, ${mixed.job_status}), then alone again: ` +
        `p99 alone ${fmt(mixed.p99_alone_ms, 1)} ms (mean of both), during ${fmt(mixed.p99_during_ms, 1)} ms; p50 ${fmt(mixed.p50_alone_ms, 1)} / ${fmt(mixed.p50_ms, 1)} ms; ` +
        `${fmt(mixed.rps_alone)} / ${fmt(mixed.rps)} req/s.`,
    );
  }
  if (results.events) {
    const run = results.scenarios.find((s) => s.name.startsWith('event ingestion'));
    lines.push(
      '',
      `Event ingestion: ${fmt(results.events.events_per_s)} events/s (${results.events.batch_size} events per request, ${results.events.connections} connections, p50 ${fmt(run?.p50_ms)} ms, p99 ${fmt(run?.p99_ms)} ms); ` +
        `fold lag p50 ${fmt(run?.fold_lag_p50_ms)} ms, p99 ${fmt(run?.fold_lag_p99_ms)} ms, max ${fmt(run?.fold_lag_max_ms)} ms; caught up ${fmt(run?.fold_catch_up_ms)} ms after the load; ` +
        `PostgreSQL CPU ${fmt(run?.postgres_cpu_ms_per_1000_events)} ms per 1,000 events; rollup mismatches ${fmt(run?.rollup_mismatches)}.`,
    );
  }
  const against = workerLines(results);
  if (against.length > 0) lines.push('', ...against);
  const rss = results.rss;
  lines.push(
    '',
    `API peak RSS over the run: ${fmt(results.peak_rss_mb, 1)} MB (VmHWM ${fmt(rss.vmhwm_mb, 1)} MB, highest VmRSS sampled each second ${fmt(rss.sampled_vmrss_mb, 1)} MB); target ≤ 300 MB.`,
  );
  return lines.join('\n');
}

/**
 * With --workers N: the jobs' seconds and the ingestion's events/s with N workers against one, in the same run.
 * @param {Results} results
 * @returns {string[]}
 */
function workerLines(results) {
  const ingestion = results.scenarios.find((s) => s.name.startsWith('event ingestion') && s.workers !== undefined);
  const jobs = results.jobs.filter((j) => j.workers !== undefined);
  if (!ingestion && jobs.length === 0) return [];
  const workers = ingestion?.workers ?? jobs[0].workers;
  return [
    `Worker processes: ${workers} against one, in the same run (one first, then ${workers}):`,
    '',
    '| scenario | one worker | ' + `${workers} workers | scaling |`,
    '|---|---|---|---|',
    ...jobs.map(
      (j) => `| ${j.name} | ${fmt(j.seconds_one_worker, 1)} s | ${fmt(j.seconds, 1)} s | ${fmt(j.worker_scaling, 2)} |`,
    ),
    ...(ingestion
      ? [
          `| ${ingestion.name}: events/s | ${fmt(ingestion.events_per_s_one_worker)} | ${fmt(ingestion.events_per_s)} | ${fmt(ingestion.worker_scaling, 2)} |`,
          `| ${ingestion.name}: fold lag p99 | ${fmt(ingestion.fold_lag_p99_ms_one_worker)} ms | ${fmt(ingestion.fold_lag_p99_ms)} ms | |`,
        ]
      : []),
  ];
}

/**
 * Replaces the marked section of RESULTS.md, or inserts it after the intro paragraph.
 * @param {string} section
 */
function updateResultsMd(section) {
  const text = readFileSync(RESULTS_MD, 'utf8');
  const block = `${MARK_START}\n${section}\n${MARK_END}`;
  const start = text.indexOf(MARK_START);
  const end = text.indexOf(MARK_END);
  if (start >= 0 && end > start) {
    writeFileSync(RESULTS_MD, text.slice(0, start) + block + text.slice(end + MARK_END.length));
    return;
  }
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && (lines[i].startsWith('# ') || lines[i].trim() === '')) i++;
  while (i < lines.length && lines[i].trim() !== '') i++;
  lines.splice(i, 0, '', block);
  writeFileSync(RESULTS_MD, lines.join('\n'));
}

function commandLine() {
  const args = process.argv.slice(2).join(' ');
  const script = process.env.npm_lifecycle_event;
  if (script === 'bench' || script === 'bench:smoke') return `npm run ${script}${args ? ` -- ${args}` : ''}`;
  return `node bench/run.js${args ? ` ${args}` : ''}`;
}

module.exports = { printSummary, markdownSection, updateResultsMd, commandLine };
