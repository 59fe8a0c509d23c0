import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { parseCidr } from '../rules/internal-traffic';

export const MAX_IP_RANGES = 100;
export const MAX_VISITOR_IDS = 1000;
export const MAX_USER_AGENT_PARTS = 20;

/** PUT /api/v1/settings/internal-traffic (docs/api.md §6.8): the whole setting, replaced. */
export class InternalTrafficRequest {
  @ApiProperty({
    type: [String],
    maxItems: MAX_IP_RANGES,
    description: 'IPv4 or IPv6 ranges in CIDR notation (a bare address is a range of one).',
    example: ['203.0.113.0/24', '2001:db8::/32'],
  })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_IP_RANGES)
  @IsString({ each: true })
  @ValidateBy(
    { name: 'isCidr', validator: { validate: (value) => typeof value === 'string' && parseCidr(value) !== null } },
    { each: true, message: 'must be an IPv4 or IPv6 range in CIDR notation' },
  )
  ipRanges: string[];

  @ApiProperty({ type: [String], maxItems: MAX_VISITOR_IDS, description: 'Visitor ids (1..128 characters each).' })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_VISITOR_IDS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(128, { each: true })
  visitorIds: string[];

  @ApiProperty({
    type: [String],
    maxItems: MAX_USER_AGENT_PARTS,
    description: 'Texts (1..128 characters each) a User-Agent contains, in any case.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_USER_AGENT_PARTS)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(128, { each: true })
  userAgentContains: string[];
}
