import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { TimestampInput } from '../../../common/validation/timestamps';
import { PaginationQuery, UpdatedSince } from '../../../common/pagination/pagination.query';
import { QUALIFICATION_STATUSES } from '../rules/qualification';
import { BUYING_INTENTS } from '../rules/intent';

/** GET /api/v1/people filters (docs/api.md §11.3). */
export class PeopleListQuery extends PaginationQuery {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of the email.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string;

  @EnumListFilter(BUYING_INTENTS, 'Buying intents.') buying_intent?: string[];

  @EnumListFilter(QUALIFICATION_STATUSES, 'Qualification statuses.') qualification_status?: string[];

  @TimestampInput({ description: 'lastSeenAt lower bound, inclusive.' }) last_seen_from?: Date;

  @TimestampInput({ description: 'lastSeenAt upper bound, inclusive.' }) last_seen_to?: Date;

  @UpdatedSince() updated_since?: Date;
}
