import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { IsUuidString } from '../../../common/validation/validators';
import { JOB_STATUSES } from '../rules/job-status';

/** GET /api/v1/custom-link-jobs filters (docs/api.md §11.3). */
export class JobListQuery extends PaginationQuery {
  @EnumListFilter(JOB_STATUSES, 'Statuses.') status?: string[];

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidString()
  campaign_id?: string;
}
