import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsHttpsUrl } from '../../../common/validation/http-url';
import { TimestampInput } from '../../../common/validation/timestamps';

export const MAX_HUMAN_OPENS = 1_000_000;

/** When the link expires (docs/api.md §6.1); null never. */
export const ExpiresAt = () =>
  TimestampInput({
    nullable: true,
    description: 'When the link stops leading to the experience (ISO 8601); null never. Not in the past on creation.',
  });

/** How many human, external opens lead to the experience; null no cap. */
export const MaxHumanOpens = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: MAX_HUMAN_OPENS,
      nullable: true,
      description:
        'How many human, external opens the link leads to the experience; null: no cap. Bots, HEAD requests, prefetches, previews and internal traffic never count.',
    }),
    IsOptional(),
    IsInt(),
    Min(1),
    Max(MAX_HUMAN_OPENS),
  );

/** Where an expired or capped link sends its visitors; null: it answers 410. */
export const ExpiredRedirectUrl = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uri',
      minLength: 1,
      maxLength: 2083,
      nullable: true,
      description:
        'An absolute https URL without credentials: where an expired or capped link redirects (302); null: it answers 410.',
    }),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(2083),
    IsHttpsUrl(),
  );

/** The access fields a link takes on creation and PATCH, and the set_access bulk action beside `action`. */
export interface LinkAccessInput {
  expiresAt?: Date | null;
  maxHumanOpens?: number | null;
  expiredRedirectUrl?: string | null;
}

export const LINK_ACCESS_FIELDS = ['expiresAt', 'maxHumanOpens', 'expiredRedirectUrl'] as const;
