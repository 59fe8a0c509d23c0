import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../common/database/prepared-query';
import type { Row } from '../../common/database/rows';
import type { InternalTraffic } from './rules/internal-traffic';
import type { RetentionPolicy } from './rules/retention';

export type InternalTrafficRow = Pick<
  Row<'internal_traffic_settings'>,
  'ip_ranges' | 'visitor_ids' | 'user_agent_contains' | 'updated_at'
>;

export type RetentionRow = Pick<
  Row<'retention_settings'>,
  'organization_id' | 'transcript_days' | 'session_days' | 'event_days' | 'updated_at'
>;

const RETENTION_COLUMNS = 'organization_id, transcript_days, session_days, event_days, updated_at';

/** The only place that queries internal_traffic_settings and retention_settings. */
@Injectable()
export class SettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Primary key; prepared (ingestion and opens read it whenever their cached copy lapses). */
  async internalTraffic(organizationId: string): Promise<InternalTrafficRow | null> {
    const rows = await preparedQuery<InternalTrafficRow>(
      this.db,
      `SELECT ip_ranges, visitor_ids, user_agent_contains, updated_at FROM internal_traffic_settings WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0] ?? null;
  }

  async saveInternalTraffic(organizationId: string, setting: InternalTraffic, at: Date): Promise<InternalTrafficRow> {
    const rows: InternalTrafficRow[] = await this.db.query(
      `INSERT INTO internal_traffic_settings (organization_id, ip_ranges, visitor_ids, user_agent_contains, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id) DO UPDATE SET ip_ranges = EXCLUDED.ip_ranges, visitor_ids = EXCLUDED.visitor_ids,
         user_agent_contains = EXCLUDED.user_agent_contains, updated_at = EXCLUDED.updated_at
       RETURNING ip_ranges, visitor_ids, user_agent_contains, updated_at`,
      [organizationId, setting.ipRanges, setting.visitorIds, setting.userAgentContains, at.toISOString()],
    );
    return rows[0];
  }

  /** Primary key. */
  async retention(organizationId: string): Promise<RetentionRow | null> {
    const rows: RetentionRow[] = await this.db.query(
      `SELECT ${RETENTION_COLUMNS} FROM retention_settings WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0] ?? null;
  }

  async saveRetention(organizationId: string, policy: RetentionPolicy, at: Date): Promise<RetentionRow> {
    const rows: RetentionRow[] = await this.db.query(
      `INSERT INTO retention_settings (organization_id, transcript_days, session_days, event_days, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id) DO UPDATE SET transcript_days = EXCLUDED.transcript_days,
         session_days = EXCLUDED.session_days, event_days = EXCLUDED.event_days, updated_at = EXCLUDED.updated_at
       RETURNING ${RETENTION_COLUMNS}`,
      [organizationId, policy.transcriptDays, policy.sessionDays, policy.eventDays, at.toISOString()],
    );
    return rows[0];
  }

  /**
   * The organizations that delete something (a sweep across tenants for the daily run, by design: it
   * reads one small row per organization that set a period and locks nothing).
   */
  async retentionsWithPeriods(): Promise<RetentionRow[]> {
    return this.db.query(
      `SELECT ${RETENTION_COLUMNS} FROM retention_settings
        WHERE transcript_days IS NOT NULL OR session_days IS NOT NULL OR event_days IS NOT NULL
        ORDER BY organization_id`,
    );
  }
}
