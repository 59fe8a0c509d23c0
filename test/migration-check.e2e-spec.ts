import { Column, DataSource, Entity, Index } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { ENTITIES } from '../src/database/entities';
import { differencesTypeormIgnores, schemaDiff } from '../src/database/migration-check';
import { PublishJobEntity } from '../src/modules/agent/entities/publish-job.entity';
import { CustomLinkEntity } from '../src/modules/custom-links/entities/custom-link.entity';
import { SessionCountDeltaEntity } from '../src/modules/sessions/entities/session-count-delta.entity';
import { visibleSession } from '../src/modules/sessions/visible-session';

/**
 * `npm run migration:check` (src/database/migration-check.ts) on the run's freshly migrated database:
 * the entities declare exactly what the migrations build, and a drifted entity is reported.
 */

type EntityClass = new () => object;

/** A copy of PublishJobEntity with a column no migration creates. */
@Entity('publish_jobs')
class PublishJobWithExtraColumn extends PublishJobEntity {
  @Column('text', { name: 'drift_note', nullable: true })
  driftNote: string | null;
}

/** A copy of PublishJobEntity declaring an index, which TypeORM's diff skips (synchronize: false), that no migration creates. */
@Entity('publish_jobs')
@Index('publish_jobs_drift_idx', { synchronize: false })
class PublishJobWithExtraIndex extends PublishJobEntity {}

describe('migration check', () => {
  const dataSources: DataSource[] = [];

  /** A DataSource on the run's database with `entities` (ENTITIES by default). */
  async function connect(entities: EntityClass[] = ENTITIES): Promise<DataSource> {
    const dataSource = new DataSource({ ...dataSourceOptions(process.env.DATABASE_URL!, 1), entities });
    dataSources.push(dataSource);
    return dataSource.initialize();
  }

  /** ENTITIES with `replaced` swapped for `by`. */
  const replacing = (replaced: EntityClass, by: EntityClass) => [
    ...ENTITIES.filter((entity) => entity !== replaced),
    by,
  ];

  afterAll(async () => {
    for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy();
  });

  it('runs on a supported PostgreSQL major (README "Run it": 15 to 18; 15 is the minimum, for UNIQUE NULLS NOT DISTINCT)', async () => {
    const dataSource = await connect();
    const [{ server_version_num: version }]: { server_version_num: string }[] =
      await dataSource.query('SHOW server_version_num');
    const major = Math.floor(Number(version) / 10000);
    expect(major).toBeGreaterThanOrEqual(15);
    expect(major).toBeLessThanOrEqual(18);
  });

  it('finds no difference between the entities and the migrated schema', async () => {
    const dataSource = await connect();
    expect(await schemaDiff(dataSource)).toEqual([]);
    expect(await differencesTypeormIgnores(dataSource)).toEqual([]);
  });

  it('reports an entity column that no migration creates', async () => {
    const dataSource = await connect(replacing(PublishJobEntity, PublishJobWithExtraColumn));
    expect(await schemaDiff(dataSource)).toEqual(['ALTER TABLE "publish_jobs" ADD "drift_note" text']);
  });

  // TypeORM keeps a parent class's column over a subclass's redeclaration, so these two change the
  // column's metadata on their own DataSource instead.

  it('reports a different column type on a table without a primary key (synchronize: false)', async () => {
    const dataSource = await connect();
    dataSource.getMetadata(SessionCountDeltaEntity).findColumnWithPropertyName('sessions')!.type = 'integer';
    expect(await schemaDiff(dataSource)).toEqual([
      'ALTER TABLE "session_count_deltas" DROP COLUMN "sessions"',
      'ALTER TABLE "session_count_deltas" ADD "sessions" integer NOT NULL',
    ]);
  });

  it('reports a generated column whose expression differs', async () => {
    const dataSource = await connect();
    dataSource.getMetadata(CustomLinkEntity).findColumnWithPropertyName('searchText')!.asExpression =
      `lower(coalesce(display_name, ''))`;
    const diff = await schemaDiff(dataSource);
    expect(diff).toContain('ALTER TABLE "custom_links" DROP COLUMN "search_text"');
    expect(diff).toContain(
      `ALTER TABLE "custom_links" ADD "search_text" text GENERATED ALWAYS AS (lower(coalesce(display_name, ''))) STORED`,
    );
  });

  it('reports a table that no entity declares', async () => {
    const dataSource = await connect(ENTITIES.filter((entity) => entity !== PublishJobEntity));
    expect(await schemaDiff(dataSource)).toEqual([]);
    expect(await differencesTypeormIgnores(dataSource)).toEqual(['table "publish_jobs" has no entity']);
  });

  it('reports an index declared with synchronize: false that no migration creates', async () => {
    const dataSource = await connect(replacing(PublishJobEntity, PublishJobWithExtraIndex));
    expect(await schemaDiff(dataSource)).toEqual([]);
    expect(await differencesTypeormIgnores(dataSource)).toEqual([
      'index "publish_jobs_drift_idx" of entity PublishJobWithExtraIndex (synchronize: false) does not exist on table "publish_jobs"',
    ]);
  });

  it('uses the one definition of a visible session in every trigger and partial index that filters sessions by it', async () => {
    const dataSource = await connect();
    const functions: { name: string; source: string }[] = await dataSource.query(
      `SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = current_schema() AND p.prosrc LIKE '%analysis_status%'`,
    );
    expect(functions.map((f) => f.name).sort()).toEqual(['session_counts_track', 'session_emails_track']);
    for (const { name, source } of functions)
      expect({ name, uses: source.includes(visibleSession()) }).toEqual({ name, uses: true });
    const indexes: { name: string; predicate: string }[] = await dataSource.query(
      `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'sessions'::regclass AND pg_get_expr(i.indpred, i.indrelid) LIKE '%analysis_status%'`,
    );
    expect(indexes.length).toBeGreaterThanOrEqual(2);
    // PostgreSQL stores a predicate with casts and parentheses: compare without them.
    const bare = (sql: string) => sql.replace(/::text|[()]/g, '');
    for (const { name, predicate } of indexes)
      expect({ name, uses: bare(predicate).startsWith(visibleSession()) }).toEqual({ name, uses: true });
  });
});
