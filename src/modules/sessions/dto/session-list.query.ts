import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { UpdatedSince } from '../../../common/pagination/updated-since';
import { IsEnumList, ToCommaList } from '../../../common/validation/enum-list';
import { IsTimestamp, ToTimestamp } from '../../../common/validation/timestamps';
import { BUYING_INTENTS, QUALIFICATION_STATUSES } from '../../people';
import { BOOKED_STATUSES } from './ingest-session.request';

/** GET /api/v1/sessions filters (docs/api.md §11.3). */
export class SessionListQuery extends PaginationQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'startTime lower bound, inclusive.' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  start_time_from?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'startTime upper bound, inclusive.' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  start_time_to?: Date;

  @ApiPropertyOptional({ description: `Comma-separated: ${QUALIFICATION_STATUSES.join(', ')} (the person's effective qualification).` })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(QUALIFICATION_STATUSES)
  qualification_status?: string[];

  @ApiPropertyOptional({ description: `Comma-separated: ${BUYING_INTENTS.join(', ')}.` })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(BUYING_INTENTS)
  buying_intent?: string[];

  @ApiPropertyOptional({ description: `Comma-separated: ${BOOKED_STATUSES.join(', ')}.` })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(BOOKED_STATUSES)
  booked_status?: string[];

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the email.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string;

  @UpdatedSince() updated_since?: Date;
}
