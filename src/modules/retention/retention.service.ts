import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { withSessionLock } from '../../common/database/advisory-locks';
import { EventRetention } from '../engagement';
import { SessionRetention } from '../sessions';
import { retentionCutoffs, SettingsService, type RetentionPolicy } from '../settings';

/** What one organization's run deleted (counts only: docs/api.md §6.10). */
export interface RetentionCounts {
  organizationId: string;
  /** Another run held the organization: this one deleted nothing. */
  busy: boolean;
  transcripts: number;
  sessions: number;
  sessionReferences: number;
  events: number;
  partitions: number;
}

/**
 * The retention run (docs/api.md §6.10): for one organization, under a lock no other run of it
 * passes, the events past their period are deleted and the log refolded, then the transcripts, then
 * the sessions with their transcripts and references (their people and accounts rolled up again),
 * then the log's past months left empty are dropped. Each step deletes what is still expired, so a
 * run killed anywhere is finished by the next.
 */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger(RetentionService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SettingsService,
    private readonly events: EventRetention,
    private readonly sessions: SessionRetention,
  ) {}

  /** The run for every organization whose setting deletes something. */
  async runAll(now = new Date()): Promise<RetentionCounts[]> {
    const counts: RetentionCounts[] = [];
    for (const { organizationId, policy } of await this.settings.retentionPolicies())
      counts.push(await this.runWith(organizationId, policy, now));
    return counts;
  }

  /** The run for one organization, with its current setting. */
  async run(organizationId: string, now = new Date()): Promise<RetentionCounts> {
    return this.runWith(organizationId, await this.settings.retentionPolicy(organizationId), now);
  }

  private async runWith(organizationId: string, policy: RetentionPolicy, now: Date): Promise<RetentionCounts> {
    const cutoffs = retentionCutoffs(policy, now);
    const counts: RetentionCounts = {
      organizationId,
      busy: false,
      transcripts: 0,
      sessions: 0,
      sessionReferences: 0,
      events: 0,
      partitions: 0,
    };
    const ran = await withSessionLock(this.db, `retention:${organizationId}`, async () => {
      if (cutoffs.events) counts.events = await this.events.expireEvents(organizationId, cutoffs.events);
      if (cutoffs.transcripts)
        counts.transcripts = await this.sessions.expireTranscripts(organizationId, cutoffs.transcripts);
      if (cutoffs.sessions) {
        const expired = await this.sessions.expireSessions(organizationId, cutoffs.sessions);
        counts.sessions = expired.sessions;
        counts.sessionReferences = expired.sessionReferences;
      }
      if (cutoffs.events) counts.partitions = await this.events.dropEmptyPartitions(cutoffs.events);
      return true;
    });
    counts.busy = ran === null;
    // Counts only: no session, person or event is named.
    this.logger.log(counts, 'Retention run');
    return counts;
  }
}
