import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Narrowed, Row } from '../../common/database/rows';
import type { Change, Section } from './rules/sections';

/** The agent row; its conversation tests are stored for the agent module, which owns their meaning. */
export type AgentRow = Narrowed<
  Pick<Row<'agents'>, 'staging_version' | 'production_version' | 'conversation_tests'>,
  { conversation_tests: unknown[] }
>;

export type GroupRow = Narrowed<
  Pick<Row<'suggestion_groups'>, 'id' | 'generation_revision' | 'status' | 'changes' | 'created_at'>,
  { changes: Change[] }
>;

type Db = EntityManager | DataSource;

/** The only place that queries the agent row, its versions and suggestions; scoped by organization. */
@Injectable()
export class PlaybookRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The agent row, created on first use (reads stay reads once it exists); `lock` holds it for the
   * transaction (applies and publishes serialise on it).
   */
  async agent(organizationId: string, tx: Db = this.db, lock = false): Promise<AgentRow> {
    const select = () =>
      tx.query(
        `SELECT staging_version, production_version, conversation_tests FROM agents WHERE organization_id = $1${lock ? ' FOR UPDATE' : ''}`,
        [organizationId],
      ) as Promise<AgentRow[]>;
    const [found] = await select();
    if (found) return found;
    await tx.query(`INSERT INTO agents (organization_id) VALUES ($1) ON CONFLICT DO NOTHING`, [organizationId]);
    return (await select())[0];
  }

  async sections(organizationId: string, version: number | null, tx: Db = this.db): Promise<Section[] | null> {
    if (version === null) return null;
    const rows: Narrowed<Pick<Row<'agent_versions'>, 'sections'>, { sections: Section[] }>[] = await tx.query(
      `SELECT sections FROM agent_versions WHERE organization_id = $1 AND version = $2`,
      [organizationId, version],
    );
    return rows[0]?.sections ?? null;
  }

  /** Appends the next version and makes it staging (inside the caller's locked transaction). */
  async addVersion(
    tx: EntityManager,
    organizationId: string,
    version: number,
    sections: Section[],
    etag: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO agent_versions (organization_id, version, sections, sections_etag) VALUES ($1, $2, $3, $4)`,
      [organizationId, version, JSON.stringify(sections), etag],
    );
    await tx.query(`UPDATE agents SET staging_version = $2, updated_at = now() WHERE organization_id = $1`, [
      organizationId,
      version,
    ]);
  }

  async setProduction(tx: EntityManager, organizationId: string, version: number): Promise<void> {
    await tx.query(`UPDATE agents SET production_version = $2, updated_at = now() WHERE organization_id = $1`, [
      organizationId,
      version,
    ]);
  }

  async setTests(organizationId: string, tests: unknown[]): Promise<void> {
    await this.agent(organizationId);
    await this.db.query(`UPDATE agents SET conversation_tests = $2, updated_at = now() WHERE organization_id = $1`, [
      organizationId,
      JSON.stringify(tests),
    ]);
  }

  async insertGroup(organizationId: string, id: string, changes: Change[], tx: Db = this.db): Promise<GroupRow> {
    const rows: GroupRow[] = await tx.query(
      `INSERT INTO suggestion_groups (organization_id, id, changes) VALUES ($1, $2, $3) RETURNING id, generation_revision, status, changes, created_at`,
      [organizationId, id, JSON.stringify(changes)],
    );
    return rows[0];
  }

  async group(organizationId: string, id: string, tx: Db = this.db, lock = false): Promise<GroupRow | null> {
    const rows: GroupRow[] = await tx.query(
      `SELECT id, generation_revision, status, changes, created_at FROM suggestion_groups WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  async updateGroup(
    tx: EntityManager,
    organizationId: string,
    id: string,
    fields: { changes?: Change[]; generationRevision?: number; status?: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE suggestion_groups SET changes = coalesce($3::jsonb, changes), generation_revision = coalesce($4, generation_revision),
              status = coalesce($5, status), updated_at = now() WHERE organization_id = $1 AND id = $2`,
      [
        organizationId,
        id,
        fields.changes ? JSON.stringify(fields.changes) : null,
        fields.generationRevision ?? null,
        fields.status ?? null,
      ],
    );
  }

  async listGroups(
    organizationId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: GroupRow[]; total: number }> {
    const rows: GroupRow[] = await this.db.query(
      `SELECT id, generation_revision, status, changes, created_at FROM suggestion_groups WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [organizationId, limit, offset],
    );
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM suggestion_groups WHERE organization_id = $1`,
      [organizationId],
    );
    return { rows, total: Number(row.total) };
  }
}
