import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsEmailAddress } from '../../../common/validation/email-address';

/** POST /api/v1/privacy/erasures: exactly one identifier of the person (docs/api.md §18.1). */
export class CreateErasureRequest {
  @ApiPropertyOptional({ type: String, maxLength: 320, description: 'Compared case-insensitively.' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmailAddress()
  email?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'A person of GET /api/v1/people.' })
  @IsOptional()
  @IsUUID()
  personId?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 50,
    description: 'Compared by its digits alone (5 to 20 of them), whatever the formatting.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Also refuse this email from now on (§18.3); needs an email or a personId.',
  })
  @IsOptional()
  @IsBoolean()
  suppress?: boolean;
}
