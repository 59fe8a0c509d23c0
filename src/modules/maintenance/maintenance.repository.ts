import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Housekeeping statements over other modules' derived tables. */
@Injectable()
export class MaintenanceRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Folds pending session count deltas into session_counts (migration SessionCounts); returns how many it folded. */
  async compactSessionCounts(): Promise<number> {
    const [row]: { folded: string }[] = await this.db.query(`SELECT compact_session_counts() AS folded`);
    return Number(row.folded);
  }
}
