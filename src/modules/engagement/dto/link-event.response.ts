import { ApiProperty } from '@nestjs/swagger';
import { BOT_REASONS, type BotReason } from '../rules/bot-detection';
import { EVENT_TYPES } from '../rules/engagement-rollup';
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

/** One event of a link's timeline. */
export class LinkEventResponse {
  @ApiProperty() eventId: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
  @ApiProperty(text) visitorId: string | null;
  @ApiProperty({ ...text, format: 'uuid' }) sessionId: string | null;
  @ApiProperty(text) pageViewId: string | null;
  @ApiProperty({ type: LinkEventBotResponse }) bot: LinkEventBotResponse;
}

export class LinkEventListResponse {
  @ApiProperty({ type: [LinkEventResponse] }) events: LinkEventResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiProperty({ type: String, nullable: true, description: 'Opaque; null on the last page.' }) nextCursor:
    string | null;
}
