import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Trim } from '../../../common/validation/coercion';

/** Body of campaign create and rename (docs/api.md §4.5): a name of 1..255 characters, stored trimmed. */
export class CampaignNameRequest {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Q4 enterprise outreach' })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;
}
