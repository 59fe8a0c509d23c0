import { Column, DataSource, Entity, Index } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { ENTITIES } from '../src/database/entities';
import { differencesTypeormIgnores, schemaDiff } from '../src/database/migration-check';
import { PublishJobEntity } from '../src/modules/agent/entities/publish-job.entity';
import { CustomLinkEntity } from '../src/modules/custom-links/entities/custom-link.entity';
import { SessionCountDeltaEntity } from '../src/modules/sessions/entities/session-count-delta.entity';

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
  const replacing = (replaced: EntityClass, by: EntityClass) => [...ENTITIES.filter((entity) => entity !== replaced), by];

  afterAll(async () => {
    for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy();
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
    dataSource.getMetadata(CustomLinkEntity).findColumnWithPropertyName('searchText')!.asExpression = `lower(coalesce(display_name, ''))`;
    const diff = await schemaDiff(dataSource);
    expect(diff).toContain('ALTER TABLE "custom_links" DROP COLUMN "search_text"');
    expect(diff).toContain(`ALTER TABLE "custom_links" ADD "search_text" text GENERATED ALWAYS AS (lower(coalesce(display_name, ''))) STORED`);
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
});
