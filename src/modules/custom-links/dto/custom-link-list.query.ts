import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery, UpdatedSince } from '../../../common/pagination/pagination.query';
import { ToBoolean } from '../../../common/validation/coercion';
import { TimestampInput } from '../../../common/validation/timestamps';
import { IsUuidString } from '../../../common/validation/validators';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { ACCESS_STATES, type AccessState } from '../rules/link-access';

export const LINK_STAGES = ['not_opened', 'opened', 'started', 'engaged'] as const;

const Text = (description: string) =>
  function (target: object, key: string) {
    ApiPropertyOptional({ maxLength: 255, description })(target, key);
    IsOptional()(target, key);
    IsString()(target, key);
    MaxLength(255)(target, key);
  };

/** GET /api/v1/custom-links filters, search and sort (docs/api.md §11.3, §11.4). */
export class CustomLinkListQuery extends PaginationQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidString()
  campaign_id?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ enum: LINK_STAGES, description: 'Exact engagement stage.' })
  @IsOptional()
  @IsIn(LINK_STAGES)
  stage?: string;

  @Text('Exact external id.') external_id?: string;
  @Text('Exact email, case-insensitive.') email?: string;
  @Text('Case-insensitive substring of the company.') company?: string;

  @TimestampInput({ description: 'createdAt lower bound, inclusive.' }) created_from?: Date;

  @TimestampInput({ description: 'createdAt upper bound, inclusive.' }) created_to?: Date;

  @UpdatedSince() updated_since?: Date;

  @EnumListFilter(ACCESS_STATES, 'Links in any of these access states (accessState).')
  access_state?: AccessState[];

  @Text('Case-insensitive substring of displayName, firstName, lastName, email, company or externalId.') q?: string;

  @ApiPropertyOptional({
    enum: ['created_at', 'last_activity_at'],
    default: 'created_at',
    description: 'Ignored with updated_since.',
  })
  @IsOptional()
  @IsIn(['created_at', 'last_activity_at'])
  sort: 'created_at' | 'last_activity_at' = 'created_at';

  @ApiPropertyOptional({ enum: ['desc', 'asc'], default: 'desc' })
  @IsOptional()
  @IsIn(['desc', 'asc'])
  order: 'desc' | 'asc' = 'desc';
}
