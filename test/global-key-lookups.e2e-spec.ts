import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { migrationDataSourceOptions } from '../src/database/data-source-options';
import { revertLastMigration } from '../src/database/migration-runs';
import { createMigratedDatabase, dropDatabase, ON_CITUS } from './support/databases';
import { createLink, slugOf } from './support/links';
import { ingest, sessionBody } from './support/sessions';
import { ALL_SCOPES, createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Migration GlobalKeyLookups (issue 35) on a database that holds keys, sessions, links and cards:
 * reverted, the unique indexes across organizations are back and the lookup tables gone; run again,
 * its backfill finds every one of them, so each route that starts from a global value answers as it
 * did (a key never used before authenticates, a session id stays taken, a slug redirects, a card is
 * served).
 */
jest.setTimeout(120_000);

const LOOKUP_TABLES = ['api_key_lookups', 'session_ids', 'custom_link_slugs'];
const GLOBAL_INDEXES = ['api_keys_key_hash_key', 'api_keys_id_key', 'sessions_id_key', 'custom_links_slug_key'];
const HUMAN_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';

/**
 * Plain PostgreSQL's: on Citus the schema the reversal goes back to cannot exist (unique indexes
 * across organizations and a SET NULL of part of a key, both refused on distributed tables).
 */
const onPlainPostgres = ON_CITUS ? describe.skip : describe;

onPlainPostgres('the global key lookups migration', () => {
  const name = `engagement_key_lookups_${process.pid}`;
  let url: string;
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    await dropDatabase(name);
    url = await createMigratedDatabase(name);
    t = await createTestApp({ APP_ROLE: 'all', DATABASE_URL: url, QUEUE_PREFIX: `bull-key-lookups-${randomUUID()}` });
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await t?.close();
    await db?.end();
    await dropDatabase(name);
  });

  const present = async (kind: 'r' | 'i', names: string[]) =>
    (
      await db.query<{ relname: string }>(
        `SELECT relname FROM pg_class WHERE relkind = $1 AND relname = ANY($2::text[]) ORDER BY relname`,
        [kind, names],
      )
    ).rows.map((row) => row.relname);

  /** Reverts the migrations from GlobalKeyLookups on, as `migration:revert` does, then runs them again. */
  async function revertAndRerun(between: () => Promise<void>): Promise<void> {
    const migrations = new DataSource(migrationDataSourceOptions(url));
    await migrations.initialize();
    try {
      const undone: string[] = [];
      while (!undone.includes('GlobalKeyLookups1767100000001')) {
        const reverted = await revertLastMigration(migrations);
        if (reverted === null) throw new Error('no migration left to revert before GlobalKeyLookups');
        undone.push(reverted);
      }
      await between();
      expect((await migrations.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(undone.reverse());
    } finally {
      await migrations.destroy();
    }
  }

  it('backfills every key, session id and slug, and keys the cards by organization', async () => {
    const [owner, other]: Tenant[] = [await t.createTenant(), await t.createTenant()];
    const sessionId = randomUUID();
    await ingest(t.server, owner.key, sessionId, sessionBody()).expect(200);
    const link = await createLink(t.server, owner.key);
    const hash = randomBytes(32).toString('hex');
    const png = randomBytes(64);
    await db.query(
      `INSERT INTO thumbnail_images (organization_id, custom_link_id, hash, png) VALUES ($1, $2, $3, $4)`,
      [owner.organizationId, link.id, hash, png],
    );
    // Made before the revert and used only after: no cache of the API has seen it.
    const unusedKey = await t.createKey(owner.organizationId, ALL_SCOPES);

    await revertAndRerun(async () => {
      expect(await present('r', LOOKUP_TABLES)).toEqual([]);
      expect(await present('i', GLOBAL_INDEXES)).toEqual([...GLOBAL_INDEXES].sort());
    });
    expect(await present('r', LOOKUP_TABLES)).toEqual([...LOOKUP_TABLES].sort());
    expect(await present('i', GLOBAL_INDEXES)).toEqual([]);

    await request(t.server).get(`/api/v1/sessions/${sessionId}`).set('x-api-key', unusedKey).expect(200);
    await ingest(t.server, other.key, sessionId, sessionBody()).expect(409);
    const opened = await request(t.server)
      .get(`/l/${slugOf(link)}`)
      .set('User-Agent', HUMAN_UA)
      .redirects(0);
    expect(opened.status).toBe(302);
    const card = await request(t.server).get(`/thumbnails/${link.id}/${hash}.png`).expect(200);
    expect(Buffer.compare(card.body as Buffer, png)).toBe(0);
    await request(t.server).get(`/thumbnails/${randomUUID()}/${hash}.png`).expect(404);
  });
});
