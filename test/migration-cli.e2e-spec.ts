import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS } from '../src/database/migrations';
import { createDatabaseBefore, dropDatabase, ON_CITUS } from './support/databases';

/**
 * The operator's schema commands through the built CLI (README, docs/api.md §15.3), as a release's
 * migration Job runs them: `migration:run` answers the migrations it applied (on a Citus cluster with
 * what the distribution step then did) and nothing pending the second time; `migration:revert` names
 * the migration it undid, which the next run applies again.
 */
jest.setTimeout(120_000);

const CLI = join(__dirname, '..', 'dist/src/cli.js');
const PENDING = MIGRATIONS.slice(-2).map((migration) => migration.name);

function cli(url: string, command: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [CLI, command], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
    timeout: 60_000,
  });
  return JSON.parse(out.toString()) as Record<string, unknown>;
}

describe('the migration commands of the CLI', () => {
  const name = `engagement_migration_cli_${process.pid}`;
  let url: string;
  let db: Client;

  beforeAll(async () => {
    url = await createDatabaseBefore(name, PENDING[0]);
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await dropDatabase(name);
  });

  const lastRun = async () =>
    (await db.query<{ name: string }>(`SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1`)).rows[0]
      .name;

  it('migration:run applies the pending migrations and names them; run again, it applies none', async () => {
    const first = cli(url, 'migration:run');
    expect(first.applied).toEqual(PENDING);
    expect(await lastRun()).toBe(PENDING[1]);
    const again = cli(url, 'migration:run');
    if (!ON_CITUS) {
      expect(first).toEqual({ applied: PENDING });
      expect(again).toEqual({ applied: [] });
      return;
    }
    // On Citus the tables they created are distributed before the command ends, and only once.
    expect((first.distribution as { distributed: string[] }).distributed.length).toBeGreaterThan(0);
    expect(again).toEqual({
      applied: [],
      distribution: { distributed: [], referenceTables: [], alreadyDistributed: expect.any(Array) as unknown },
    });
  });

  it('migration:revert names the migration it undid; the next run applies it again', async () => {
    expect(cli(url, 'migration:revert')).toEqual({ reverted: PENDING[1] });
    expect(await lastRun()).toBe(PENDING[0]);
    expect(cli(url, 'migration:run').applied).toEqual([PENDING[1]]);
    expect(await lastRun()).toBe(PENDING[1]);
  });
});
