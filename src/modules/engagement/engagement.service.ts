import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import { isoOrNull } from '../../common/validation/timestamps';
import { InjectPort } from '../../common/wiring/port';
import { stageOf, visitorFigures } from './rules/engagement-rollup';
import { EngagementRepository, type LinkFunnelCounts } from './engagement.repository';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';
import { TRACKED_SESSIONS, type TrackedSessions } from './tracked-sessions';
import type {
  CampaignEngagementResponse,
  FunnelResponse,
  SessionReferenceListResponse,
} from './dto/engagement.response';
import type { FunnelQuery } from './dto/funnel.query';
import { toLinkEventResponse, type LinkEventListResponse } from './dto/link-event.response';
import type { LinkEventsQuery } from './dto/link-events.query';

const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/** The link counts campaign engagement and the funnel share. */
function linkCountsOf(row: LinkFunnelCounts) {
  return {
    generatedLinkCount: row.generated,
    openedLinkCount: row.opened,
    startedLinkCount: row.started,
    engagedLinkCount: row.engaged,
    leadSubmittedLinkCount: row.lead_submitted,
    meetingClickedLinkCount: row.meeting_clicked,
    meetingBookedLinkCount: row.meeting_booked,
    botScannedOnlyLinkCount: row.bot_scanned_only,
  };
}

/**
 * Engagement reads: campaign rollups, a link's session references, the funnel. Links and sessions are
 * read through the ports their modules implement (RollupLinks, TrackedSessions) or, where a read is
 * one statement, their read models (campaign_ids, link_rollups, visible_sessions, person_intents).
 */
@Injectable()
export class EngagementService {
  constructor(
    private readonly engagement: EngagementRepository,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
    @InjectPort(TRACKED_SESSIONS) private readonly sessions: TrackedSessions,
    private readonly cursors: Cursors,
  ) {}

  async campaign(organizationId: string, campaignId: string): Promise<CampaignEngagementResponse> {
    const asOf = await this.engagement.foldedAsOf(organizationId);
    const row = await this.engagement.campaignEngagement(organizationId, campaignId);
    if (!row) throw NotFoundError.inOrganization('Custom Link campaign');
    const visitors = visitorFigures(row.loads, row.persistent_visitors, row.ephemeral_page_views);
    return {
      campaignId: campaignId.toLowerCase(),
      ...linkCountsOf(row),
      activeLinkCount: row.active,
      pageViewCount: row.page_views,
      loadCount: row.loads,
      uniqueVisitorCount: visitors.uniqueVisitorCount,
      persistentUniqueVisitorCount: row.persistent_visitors,
      ephemeralPageViewCount: row.ephemeral_page_views,
      sessionCount: row.sessions,
      startedSessionCount: row.started_sessions,
      engagedSessionCount: row.engaged_sessions,
      loadsPerUniqueVisitor: visitors.loadsPerUniqueVisitor,
      visitorCountMode: visitors.visitorCountMode,
      firstOpenedAt: isoOrNull(row.first_opened_at),
      lastOpenedAt: isoOrNull(row.last_opened_at),
      lastActivityAt: isoOrNull(row.last_activity_at),
      asOf: asOf.toISOString(),
    };
  }

  async sessionsOfLink(
    organizationId: string,
    linkId: string,
    limit: number,
    offset: number,
  ): Promise<SessionReferenceListResponse> {
    if (!(await this.links.exists(organizationId, linkId))) throw NotFoundError.inOrganization('Custom Link');
    const { rows, total } = await this.engagement.sessionsOfLink(organizationId, linkId, limit, offset);
    const visible = await this.sessions.visibleAmong(
      organizationId,
      rows.map((row) => row.session_id),
    );
    return {
      sessions: rows.map((row) => ({
        sessionId: row.session_id,
        stage: stageOf({
          firstOpenedAt: row.opened_at,
          firstStartedAt: row.started_at,
          firstEngagedAt: row.engaged_at,
        }),
        openedAt: isoOrNull(row.opened_at),
        startedAt: isoOrNull(row.started_at),
        engagedAt: isoOrNull(row.engaged_at),
        endedAt: isoOrNull(row.ended_at),
        analysisAvailable: visible.has(row.session_id),
      })),
      total,
      limit,
      offset,
    };
  }

  async eventsOfLink(organizationId: string, linkId: string, query: LinkEventsQuery): Promise<LinkEventListResponse> {
    if (!(await this.links.exists(organizationId, linkId))) throw NotFoundError.inOrganization('Custom Link');
    // The link is in the list's name: a cursor of one link's timeline is refused on another's.
    const list = `link-events:${linkId.toLowerCase()}`;
    const window = this.cursors.window(list, organizationId, query);
    const { rows, total } = await this.engagement.eventsOfLink(
      organizationId,
      linkId,
      { includeBots: query.include_bots, includeInternal: query.include_internal, types: query.type },
      window,
    );
    const page = this.cursors.page(list, organizationId, query, window, rows, keysetOf);
    return {
      events: page.rows.map(toLinkEventResponse),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  async funnel(organizationId: string, query: FunnelQuery): Promise<FunnelResponse> {
    const window = { from: query.from, to: query.to, campaignId: query.campaign_id?.toLowerCase() };
    const funnel = await this.engagement.funnel(organizationId, window);
    return {
      ...linkCountsOf(funnel),
      rates: {
        opened: share(funnel.opened, funnel.generated),
        started: share(funnel.started, funnel.generated),
        engaged: share(funnel.engaged, funnel.generated),
        leadSubmitted: share(funnel.lead_submitted, funnel.generated),
        meetingBooked: share(funnel.meeting_booked, funnel.generated),
      },
      sessions: {
        total: funnel.sessions,
        qualified: funnel.qualified,
        booked: funnel.booked,
        highIntent: funnel.high_intent,
      },
    };
  }
}
