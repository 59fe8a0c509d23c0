import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { LimitExceededError, NotFoundError } from '../../common/errors/domain-errors';
import { limitState } from '../../common/counters/windows';
import { countLimitRejection } from '../../common/metrics/app-metrics';
import { CountCache } from '../../common/pagination/count-cache';
import { Cursors, keysetOf, type PageWindow } from '../../common/pagination/cursor';
import type { SessionListQuery } from './dto/session-list.query';
import {
  toSessionDetailResponse,
  toSessionResponse,
  type SessionDetailResponse,
  type SessionListResponse,
} from './dto/session.response';
import type { TranscriptResponse } from './dto/transcript.response';
import { lifecycleOf } from '../engagement';
import { SESSION_LIST } from './session-list';
import {
  SessionsRepository,
  type ListedSession,
  type SessionDetailRow,
  type SessionSearchQuery,
} from './sessions.repository';
import { TranscriptQuota } from './transcript-quota';

const SESSION_NOT_FOUND = 'Session not found, outside the organization, or not yet analyzed.';
const TRANSCRIPT_NOT_FOUND = 'Transcript not found or outside the organization.';

/** A session's detail with its link, campaign and lifecycle as engagement tracking observed them. */
export function toSessionDetail(session: SessionDetailRow): SessionDetailResponse {
  const { observed } = session;
  // customLinkId may be ingested or derived from events carrying the session id (docs/api.md §2.2, §6.6).
  const linkId = session.custom_link_id ?? observed[0]?.custom_link_id ?? null;
  const ofLink = observed.filter((e) => e.custom_link_id === linkId);
  // An ingested campaign stands; else the campaign of the link the session was observed through.
  const campaignId = session.custom_link_campaign_id ?? ofLink[0]?.campaign_id ?? null;
  return toSessionDetailResponse(session, {
    customLinkId: linkId,
    customLinkCampaignId: campaignId,
    lifecycle: linkId ? lifecycleOf(ofLink) : null,
  });
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly counts: CountCache,
    private readonly quota: TranscriptQuota,
    private readonly cursors: Cursors,
  ) {}

  async list(organizationId: string, query: SessionListQuery): Promise<SessionListResponse> {
    const { email } = query;
    const window = this.cursors.window(SESSION_LIST, organizationId, query);
    // A sync (updated_since) reads its range of sessions_updated_idx, email substring or not.
    const { rows, total } =
      email === undefined || query.updated_since !== undefined
        ? await this.sessions.list(organizationId, query, window)
        : await this.search(organizationId, { ...query, email }, window);
    const page = this.cursors.page(SESSION_LIST, organizationId, query, window, rows, keysetOf);
    return {
      sessions: page.rows.map(toSessionResponse),
      pagination: { total, limit: query.limit, offset: page.offset, nextCursor: page.nextCursor },
    };
  }

  /**
   * An email substring's total, then its page, read by the path that suits that many matches. The
   * total can cost a scan of the organization's emails, so it is cached; every other total is cheap
   * (per-month counts).
   */
  private async search(
    organizationId: string,
    query: SessionSearchQuery,
    window: PageWindow,
  ): Promise<{ rows: ListedSession[]; total: number }> {
    const limits = await this.sessions.emailSearchLimits(organizationId, query.email);
    const total = await this.counts.count(SESSION_LIST, organizationId, query, () =>
      this.sessions.searchCount(organizationId, query, limits),
    );
    return { rows: await this.sessions.searchPage(organizationId, query, window, total, limits), total };
  }

  /**
   * A session with its person's intent and what engagement tracking observed of it (one statement,
   * through the owners' read models). `tx`: the detail as that transaction sees it (a webhook
   * payload written with the change).
   */
  async get(organizationId: string, id: string, tx?: EntityManager): Promise<SessionDetailResponse> {
    const session = await this.sessions.findVisible(organizationId, id, tx);
    if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
    return toSessionDetail(session);
  }

  /**
   * The transcript, charged to the organization's daily quota (docs/api.md §8.2) only once it is
   * found: 404s never consume a read. The count is kept in PostgreSQL, not Redis, so that losing
   * Redis never gives an organization its day's reads back (docs/operations.md "Redis restart").
   */
  async transcript(organizationId: string, sessionId: string): Promise<TranscriptResponse> {
    const now = Date.now();
    const { day, limit, endsAt } = this.quota.windowAt(now);
    const read = await this.sessions.readTranscript(organizationId, sessionId, { day, limit });
    if (!read) throw new NotFoundError(TRANSCRIPT_NOT_FOUND);
    if (read.reads === null) {
      countLimitRejection('transcripts');
      throw new LimitExceededError(limitState({ limit, endsAt }, limit, now));
    }
    return { sessionId, entries: read.entries, total: read.total };
  }
}
