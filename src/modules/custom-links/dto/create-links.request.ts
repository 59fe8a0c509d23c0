import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { CampaignRef, CampaignRefInput, LinkFieldsInput } from './link-fields.request';

export const MAX_LINKS_PER_JOB = 500;

export class CreateLinkInput extends LinkFieldsInput {
  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  externalId?: string | null;
}

/** Body of POST /api/v1/custom-links (docs/api.md §12.1). */
export class CreateLinksRequest {
  @ApiProperty({ type: [CreateLinkInput], minItems: 1, maxItems: MAX_LINKS_PER_JOB })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LINKS_PER_JOB)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CreateLinkInput)
  links: CreateLinkInput[];

  @CampaignRef() campaign?: CampaignRefInput | null;
}
