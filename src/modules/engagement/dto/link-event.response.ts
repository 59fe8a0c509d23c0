import { ApiProperty } from '@nestjs/swagger';
import type { LinkEventRow } from '../engagement.repository';
import { BOT_REASONS, type BotReason } from '../rules/bot-detection';
import { EVENT_TYPES } from '../rules/engagement-rollup';
import { DEVICE_TYPES, type DeviceType } from '../rules/event-context';
import { INTERNAL_REASONS, type InternalReason } from '../../settings';
import { ApiInteger } from '../../../common/http/api-integer';

const text = { type: String, nullable: true } as const;

export class LinkEventBotResponse {
  @ApiProperty() isBot: boolean;

  @ApiProperty({
    type: String,
    enum: BOT_REASONS,
    nullable: true,
    description:
      'null for a human; user_agent: a bot User-Agent (isbot, a missing one, or an event sent with bot: true); prefetch: a Sec-Purpose, Purpose or X-Moz prefetch header; head_request: a HEAD on /l/{slug}; scanner: a known link scanner (docs/api.md §6.3). Also null for bot events recorded before reasons were.',
  })
  reason: BotReason | null;
}

export class LinkEventInternalResponse {
  @ApiProperty() isInternal: boolean;

  @ApiProperty({
    type: String,
    enum: INTERNAL_REASONS,
    nullable: true,
    description:
      "null for external traffic; ip_range, visitor_id, user_agent: the organization's internal traffic setting matched; preview: opened through the link's previewUrl; declared: sent with internal: true (docs/api.md §6.8).",
  })
  reason: InternalReason | null;
}

/** An event's UTM parameters (docs/api.md §6.3), each null when not sent. */
export class LinkEventUtmResponse {
  @ApiProperty(text) source: string | null;
  @ApiProperty(text) medium: string | null;
  @ApiProperty(text) campaign: string | null;
  @ApiProperty(text) term: string | null;
  @ApiProperty(text) content: string | null;
}

/** One event of a link's timeline. */
export class LinkEventResponse {
  @ApiProperty() eventId: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty(text) visitorId: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) sessionId: string | null;
  @ApiProperty(text) pageViewId: string | null;
  @ApiProperty({ type: LinkEventBotResponse }) bot: LinkEventBotResponse;
  @ApiProperty({ type: LinkEventInternalResponse }) internal: LinkEventInternalResponse;
  @ApiProperty({
    ...text,
    description: 'ISO 3166-1 alpha-2, from the proxy in front or the client address (not stored).',
  })
  country: string | null;
  @ApiProperty({
    type: String,
    enum: DEVICE_TYPES,
    nullable: true,
    description: 'From the User-Agent; null without one.',
  })
  deviceType: DeviceType | null;
  @ApiProperty({ ...text, description: 'The browser name the User-Agent gives (bowser), e.g. Chrome.' })
  browser: string | null;
  @ApiProperty({ ...text, description: 'The operating system the User-Agent gives (bowser), e.g. macOS.' })
  os: string | null;
  @ApiProperty({ ...text, description: 'The registrable domain of the referrer.' }) referrerDomain: string | null;
  @ApiProperty({
    type: LinkEventUtmResponse,
    nullable: true,
    description: 'null when the event carried no UTM parameter.',
  })
  utm: LinkEventUtmResponse | null;
}

export function toLinkEventResponse(row: LinkEventRow): LinkEventResponse {
  const utm =
    (row.utm_source ?? row.utm_medium ?? row.utm_campaign ?? row.utm_term ?? row.utm_content) !== null
      ? {
          source: row.utm_source,
          medium: row.utm_medium,
          campaign: row.utm_campaign,
          term: row.utm_term,
          content: row.utm_content,
        }
      : null;
  return {
    eventId: row.event_id,
    type: row.type,
    occurredAt: row.occurred_at.toISOString(),
    visitorId: row.visitor_id,
    sessionId: row.session_id,
    pageViewId: row.page_view_id,
    bot: { isBot: row.bot, reason: row.bot ? row.bot_reason : null },
    internal: { isInternal: row.internal_reason !== null, reason: row.internal_reason },
    country: row.country,
    deviceType: row.device_type,
    browser: row.browser,
    os: row.os,
    referrerDomain: row.referrer_domain,
    utm,
  };
}

export class LinkEventListResponse {
  @ApiProperty({ type: [LinkEventResponse] }) events: LinkEventResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page.' }) nextCursor:
    string | null;
}
