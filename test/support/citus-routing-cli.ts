/**
 * `npm run citus:routing -- <coordinator log>...`: what routes to one shard (issue 35 point 1).
 * Reads the auto_explain plans a Citus run of the e2e suite left in the coordinator's log
 * (TEST_CITUS_EXPLAIN=1; docs/scaling.md, "What routes to one shard"), attributes each to the
 * service's statement of the SQL snapshot, and prints a Markdown report: every statement that had
 * a Citus scan of more than one task, and how many ran on one. Exits 1 when a statement of the
 * service fanned out and is not one of the documented few below.
 */
import { readFileSync } from 'node:fs';
import { collectQueries } from './sql-snapshot.ts';
import { plansOf, routingOf, type StatementRouting } from './citus-routing.ts';

/** The service's statements that read every shard by design, by snapshot label prefix, with why. */
export const FAN_OUTS: { statement: string; why: string }[] = [
  ...[
    'src/queries/job-reaper.sql: -- reclaimLapsedRows',
    'src/queries/custom-link-jobs.repository.sql: -- CustomLinkJobsRepository.lapsedWithItemsSettled',
    'src/queries/custom-link-jobs.repository.sql: -- CustomLinkJobsRepository.reclaimLapsed',
    'src/queries/webhooks.repository.sql: -- WebhooksRepository.claimDue',
  ].map((statement) => ({
    statement,
    why: "a lease sweep's candidate read across tenants (a partial index of unfinished rows, at most 100, every few seconds); the claims that follow are per organization",
  })),
  {
    statement: 'src/queries/engagement.repository.sql: -- EngagementRepository.organizationsToFold',
    why: "the fold's candidate read: which organizations have batches waiting (each fold then locks and reads one organization)",
  },
  ...[
    'src/queries/exports.repository.sql: -- ExportsRepository.deleteExpired',
    'src/queries/idempotency.repository.sql: -- IdempotencyRepository.purgeExpired',
    'src/queries/webhooks.repository.sql: -- WebhooksRepository.deleteMessagesBefore',
  ].map((statement) => ({
    statement,
    why: 'a maintenance purge of expired rows across tenants (hourly, bounded by its index); no request runs it',
  })),
  {
    statement: 'src/queries/sessions.repository.sql: -- SessionsRepository.deleteSelected (2)',
    why: "deleting sessions (erasure, retention) deletes their ids' lookup rows, distributed by the id: one task per shard holding one of them",
  },
  {
    statement: 'src/queries/custom-links.repository.sql: -- CustomLinksRepository.dueForClosing',
    why: "the link access sweep's candidate read across tenants (custom_links_access_due_idx, at most 1,000 links, every 30 s on the workers, no lock); the closing that follows is per organization",
  },
  {
    statement: 'src/queries/settings.repository.sql: -- SettingsRepository.retentionsWithPeriods',
    why: "the daily retention run's read of which organizations set a period (one small row each, no lock); each deletion that follows is per organization",
  },
  {
    statement: 'src/queries/sessions.repository.sql: -- SessionsRepository.emailGramSamplesDue',
    why: "the email gram sweep's read of which organizations are due (per-month counts summed per organization, every ten minutes on the workers, no lock); each sample that follows is per organization",
  },
  {
    statement: 'src/queries/organizations.repository.sql: -- OrganizationsRepository.any',
    why: 'first run at start-up: whether any organization exists (LIMIT 1), once per process',
  },
];

const logs = process.argv.slice(2);
if (logs.length === 0) {
  process.stderr.write('usage: npm run citus:routing -- <coordinator log>...\n');
  process.exit(2);
}
const routing = routingOf(
  logs.flatMap((path) => plansOf(readFileSync(path, 'utf8'))),
  collectQueries(process.cwd()),
);
const service = routing.filter((row) => row.statement !== null);
const documented = (row: StatementRouting) => FAN_OUTS.find((fan) => row.statement!.startsWith(fan.statement));
/** More than one task, or an INSERT … SELECT Citus had to repartition across shards. */
const fansOut = (row: StatementRouting) =>
  row.mostTasks > 1 || row.insertSelect.some((method) => method !== 'pull to coordinator');
const fanning = service.filter(fansOut);
const unexpected = fanning.filter((row) => documented(row) === undefined);
const onCoordinator = service.filter((row) => row.mostTasks === 0 && row.insertSelect.length === 0);
const pulled = service.filter((row) => !fansOut(row) && row.insertSelect.length > 0);
/** One shard, but planned in steps (CTEs or subqueries run first, their results read back): a round trip each. */
const stepped = service.filter((row) => !fansOut(row) && row.subplans > 0);

const cell = (text: string) => text.replace(/\|/g, '\\|');
const lines = [
  `Service statements seen: ${service.length} (${routing.length - service.length} other texts: the specs' own and TypeORM's)`,
  `- one shard (Task Count 1): ${service.length - fanning.length - onCoordinator.length - pulled.length}`,
  `- INSERT … SELECT of the tenant's rows, collected on the coordinator, then written to its shard: ${pulled.length}`,
  `- no distributed table read (coordinator only): ${onCoordinator.length}`,
  `- more than one shard: ${fanning.length} (${unexpected.length} not documented)`,
  '',
  '| statement | calls | most tasks | subplans | INSERT … SELECT | why |',
  '|---|---|---|---|---|---|',
  ...fanning.map(
    (row) =>
      `| ${cell(row.statement!)} | ${row.calls} | ${row.mostTasks} | ${row.subplans} | ${row.insertSelect.join(', ')} | ${cell(documented(row)?.why ?? '**not documented**')} |`,
  ),
  '',
  `One shard in several steps (subplans run first, each a round trip through the coordinator): ${stepped.length}`,
  '',
  '| statement | calls | subplans | INSERT … SELECT |',
  '|---|---|---|---|',
  ...stepped.map(
    (row) => `| ${cell(row.statement!)} | ${row.calls} | ${row.subplans} | ${row.insertSelect.join(', ')} |`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(unexpected.length > 0 ? 1 : 0);
