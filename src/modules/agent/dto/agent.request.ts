import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';
import { OptionalText, RequiredText } from '../../../common/validation/field-decorators';
import { ApiInteger } from '../../../common/http/api-integer';

export const PUBLISH_CONFIRMATION = 'publish-to-production';

export class ConversationTestInput {
  @RequiredText(1, 255) name: string;
  @OptionalText(128) sectionKey?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  mustContain?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  mustNotContain?: string[];
}

/** PUT /api/v1/agent/conversation-tests: replaces the organization's tests. */
export class ConversationTestsRequest {
  @ApiProperty({ type: [ConversationTestInput], maxItems: 200 })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ConversationTestInput)
  tests: ConversationTestInput[];
}

/** POST /api/v1/agent/publish-jobs: the exact version and the literal confirmation. */
export class PublishRequest {
  @ApiInteger({ minimum: 1 })
  @IsDefined()
  @IsInt()
  @Min(1)
  version: number;

  @ApiProperty({ enum: [PUBLISH_CONFIRMATION] })
  @IsDefined()
  @IsIn([PUBLISH_CONFIRMATION])
  confirm: typeof PUBLISH_CONFIRMATION;
}
