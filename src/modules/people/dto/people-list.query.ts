import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsEnumList, ToCommaList } from '../../../common/validation/enum-list';
import { IsTimestamp, ToTimestamp } from '../../../common/validation/timestamps';
import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { UpdatedSince } from '../../../common/pagination/updated-since';
import { QUALIFICATION_STATUSES } from '../rules/qualification';
import { BUYING_INTENTS } from '../rules/intent';

/** GET /api/v1/people filters (docs/api.md §11.3). */
export class PeopleListQuery extends PaginationQuery {
  @ApiPropertyOptional({ description: 'Case-insensitive substring of the email.', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  email?: string;

  @ApiPropertyOptional({ description: `Comma-separated: ${BUYING_INTENTS.join(', ')}.` })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(BUYING_INTENTS)
  buying_intent?: string[];

  @ApiPropertyOptional({ description: `Comma-separated: ${QUALIFICATION_STATUSES.join(', ')}.` })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(QUALIFICATION_STATUSES)
  qualification_status?: string[];

  @ApiPropertyOptional({ format: 'date-time', description: 'lastSeenAt lower bound, inclusive.' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  last_seen_from?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'lastSeenAt upper bound, inclusive.' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  last_seen_to?: Date;

  @UpdatedSince() updated_since?: Date;
}
