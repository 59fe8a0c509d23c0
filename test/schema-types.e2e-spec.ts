import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { createMigratedDatabase, dropDatabase } from './support/databases';
import { SCHEMA_TYPES_FILE, schemaTypes } from './support/schema-types';

/**
 * The committed row types (src/common/database/schema.ts) are what `npm run db:types` generates
 * from the schema the migrations build: here, the run's own freshly migrated database.
 */

/** Null when `generated` is what is committed; otherwise what to tell the developer. */
function staleness(committed: string, generated: string): string | null {
  if (committed === generated) return null;
  const was = committed.split('\n');
  const is = generated.split('\n');
  const line = was.findIndex((text, i) => text !== is[i]);
  const at = line === -1 ? was.length : line;
  return (
    `${SCHEMA_TYPES_FILE} is not what the migrations build (line ${at + 1}: committed ${JSON.stringify(was[at] ?? '')}, ` +
    `generated ${JSON.stringify(is[at] ?? '')}): run \`npm run db:types\` and commit the file`
  );
}

describe('generated row types', () => {
  it('match the migrated schema', async () => {
    const generated = await schemaTypes(process.env.DATABASE_URL!);
    expect(staleness(readFileSync(SCHEMA_TYPES_FILE, 'utf8'), generated)).toBeNull();
  });

  it('differ, with a message saying what to run, when the schema has a column the committed types lack', async () => {
    const name = `engagement_schema_drift_${Date.now()}_${process.pid}`;
    const url = await createMigratedDatabase(name);
    try {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`ALTER TABLE publish_jobs ADD COLUMN drift_note text`);
      } finally {
        await client.end();
      }
      const generated = await schemaTypes(url);
      expect(generated).toContain('  drift_note: string | null;\n');
      expect(staleness(readFileSync(SCHEMA_TYPES_FILE, 'utf8'), generated)).toMatch(
        /^src\/common\/database\/schema\.ts is not what the migrations build \(line \d+: .*drift_note.*\): run `npm run db:types`/,
      );
    } finally {
      await dropDatabase(name);
    }
  });
});
