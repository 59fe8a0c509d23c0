import { Injectable } from '@nestjs/common';
import { utcDayOf } from '../../common/counters/windows';
import { AppConfigService } from '../../config/app-config';
import { SessionsRepository } from './sessions.repository';

/** The quota's window at an instant: the UTC day (docs/api.md §8.2), its limit and its end. */
export interface TranscriptQuotaWindow {
  day: string;
  limit: number;
  /** The next 00:00:00.000 UTC, in Unix milliseconds. */
  endsAt: number;
}

/**
 * The daily transcript quota, as the sessions module charges it (SessionsService.transcript) and as
 * others may read it (GET /api/v1/usage): the count lives in this module's transcript_daily_reads.
 */
@Injectable()
export class TranscriptQuota {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly config: AppConfigService,
  ) {}

  windowAt(now: number): TranscriptQuotaWindow {
    const { date, endsAt } = utcDayOf(now);
    return { day: date, limit: this.config.values.limits.transcriptDailyLimit, endsAt };
  }

  /** The reads charged to the day holding `now`, with that day's window. */
  async usage(organizationId: string, now: number): Promise<TranscriptQuotaWindow & { used: number }> {
    const window = this.windowAt(now);
    return { ...window, used: await this.sessions.transcriptReadsOn(organizationId, window.day) };
  }
}
