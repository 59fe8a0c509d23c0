import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { OptionalText, RequiredText } from '../../../common/validation/field-decorators';
import { StrictDto } from '../../../common/validation/strict-dto.decorator';
import { CHANGE_OPERATIONS, type ChangeOperation } from '../rules/sections';
import { ApiInteger } from '../../../common/http/api-integer';

const CONTENT = 100_000;

const ChangeIdList = () => (target: object, key: string) => {
  ApiProperty({ type: [String], minItems: 1, maxItems: 100 })(target, key);
  IsDefined()(target, key);
  IsArray()(target, key);
  ArrayMinSize(1)(target, key);
  ArrayMaxSize(100)(target, key);
  IsString({ each: true })(target, key);
};

export class SectionInput {
  @RequiredText(1, 128) key: string;
  @RequiredText(1, 255) title: string;

  @ApiProperty({ maxLength: CONTENT })
  @IsDefined()
  @IsString()
  @MaxLength(CONTENT)
  content: string;
}

/** PUT /api/v1/playbook: a new staging version (docs/api.md §14.2). */
export class PutPlaybookRequest {
  @ApiProperty({ type: [SectionInput], maxItems: 200 })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SectionInput)
  sections: SectionInput[];

  @ApiPropertyOptional({ minLength: 64, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MinLength(64)
  @MaxLength(64)
  expectedSectionsEtag?: string;
}

export class ChangeInput {
  @RequiredText(1, 128) changeId: string;
  @RequiredText(1, 128) sectionKey: string;

  @ApiProperty({ enum: CHANGE_OPERATIONS })
  @IsDefined()
  @IsIn(CHANGE_OPERATIONS)
  operation: ChangeOperation;

  @OptionalText(255) title?: string | null;
  @OptionalText(CONTENT) content?: string | null;
  @OptionalText(10_000) rationale?: string | null;
}

/** POST /api/v1/playbook/suggestions: a group of generated changes. */
export class CreateSuggestionsRequest {
  @ApiProperty({ type: [ChangeInput], minItems: 1, maxItems: 100 })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ChangeInput)
  changes: ChangeInput[];
}

export class EditInput {
  @RequiredText(1, 128) changeId: string;

  @ApiProperty({ maxLength: CONTENT })
  @IsDefined()
  @IsString()
  @MaxLength(CONTENT)
  content: string;
}

/** POST /api/v1/playbook/suggestions/{group_id}/preview. */
export class PreviewRequest {
  @ChangeIdList() changeIds: string[];

  @ApiPropertyOptional({ type: [EditInput], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => EditInput)
  edits?: EditInput[];
}

/** POST /api/v1/playbook/suggestions/{group_id}/apply (docs/api.md §4.6): no other properties allowed. */
@StrictDto()
export class ApplySuggestionsRequest {
  @ChangeIdList() changeIds: string[];

  @ApiProperty({ minLength: 64, maxLength: 64 })
  @IsDefined()
  @IsString()
  @MinLength(64)
  @MaxLength(64)
  expectedSectionsEtag: string;

  @ApiInteger({ minimum: 0 })
  @IsDefined()
  @IsInt()
  @Min(0)
  expectedGenerationRevision: number;
}
