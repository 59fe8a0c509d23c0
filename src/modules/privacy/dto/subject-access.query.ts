import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { IsEmailAddress } from '../../../common/validation/email-address';

/** GET /api/v1/privacy/subjects (docs/api.md §18.4): whose data. */
export class SubjectAccessQuery {
  @ApiProperty({
    minLength: 1,
    maxLength: 320,
    example: 'ada@acme.com',
    description:
      "The person's email, matched case-insensitively (surrounding spaces ignored); validated as session ingestion validates its email.",
  })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  @IsEmailAddress()
  email: string;
}
