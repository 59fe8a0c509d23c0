/**
 * `npm run sql:snapshot`: rewrites src/queries/*.sql from the code (sql-snapshot.ts) and deletes the
 * snapshot files no source statement produces any more. Commit the result with the query change;
 * src/sql-snapshot.spec.ts fails while the committed snapshot differs from the code.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectQueries, renderSnapshot, SNAPSHOT_DIR, snapshotDrift } from './sql-snapshot.ts';

const root = process.cwd();
const files = collectQueries(root);
const snapshot = renderSnapshot(files);
const drift = snapshotDrift(root, snapshot);

mkdirSync(join(root, SNAPSHOT_DIR), { recursive: true });
for (const path of [...drift.changed, ...drift.missing]) writeFileSync(join(root, path), snapshot.get(path)!);
for (const path of drift.stale) rmSync(join(root, path));

const queries = files.flatMap((file) => file.queries);
const interpolated = queries.filter((query) => query.interpolated).length;
const report = [
  `${SNAPSHOT_DIR}: ${files.length} files, ${queries.length} statements (${queries.length - interpolated} static, ${interpolated} with interpolations)`,
  ...drift.changed.map((path) => `  updated ${path}`),
  ...drift.missing.map((path) => `  created ${path}`),
  ...drift.stale.map((path) => `  deleted ${path}`),
];
process.stdout.write(`${report.join('\n')}\n`);
