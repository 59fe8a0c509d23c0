import { ApiProperty } from '@nestjs/swagger';
import { CustomLinkResponse } from './custom-link.response';
import { JobResponse } from '../../custom-link-jobs';

export class UpdateLinkResponse {
  @ApiProperty({ type: CustomLinkResponse }) customLink: CustomLinkResponse;
  @ApiProperty({
    type: JobResponse,
    nullable: true,
    description: 'A thumbnail job when a thumbnail-affecting field changed value; else null.',
  })
  job: JobResponse | null;
}
