import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery, UpdatedSince } from '../../../common/pagination/pagination.query';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { TimestampInput } from '../../../common/validation/timestamps';
import { BUYING_INTENTS, QUALIFICATION_STATUSES } from '../../people';
import { BOOKED_STATUSES } from './ingest-session.request';

/** GET /api/v1/sessions filters (docs/api.md §11.3). */
export class SessionListQuery extends PaginationQuery {
  @TimestampInput({ description: 'startTime lower bound, inclusive.' }) start_time_from?: Date;

  @TimestampInput({ description: 'startTime upper bound, inclusive.' }) start_time_to?: Date;

  @EnumListFilter(QUALIFICATION_STATUSES, "The person's effective qualification.") qualification_status?: string[];

  @EnumListFilter(BUYING_INTENTS, 'Buying intents.') buying_intent?: string[];

  @EnumListFilter(BOOKED_STATUSES, 'Booked statuses.') booked_status?: string[];

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the email.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string;

  @UpdatedSince() updated_since?: Date;
}
