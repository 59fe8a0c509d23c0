import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsHttpUrl } from '../../../common/validation/http-url';
import { IsUuidString } from '../../../common/validation/validators';
import { ExpiredRedirectUrl, ExpiresAt, MaxHumanOpens, type LinkAccessInput } from './link-access.request';

/** A string a client may clear with null. */
const ClearableText = (max: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: max, nullable: true }),
    IsOptional(),
    IsString(),
    MaxLength(max),
  );

/** An absolute http(s) URL of 1..2083 characters a client may clear with null (pydantic's HttpUrl bound). */
const ClearableUrl = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uri',
      minLength: 1,
      maxLength: 2083,
      nullable: true,
      description: 'An absolute http or https URL.',
    }),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(2083),
    IsHttpUrl(),
  );

/** A string that may be absent but never null (displayName). */
const RequiredWhenGiven = (min: number, max: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, minLength: min, maxLength: max }),
    ValidateIf((_, v) => v !== undefined),
    IsString(),
    MinLength(min),
    MaxLength(max),
  );

/** `{"id"}` files the link in a campaign of the organization; `{"name"}` reuses or creates one (docs/api.md §12.2). */
export class CampaignRefInput {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required unless `name` is given.' })
  @ValidateIf((ref: CampaignRefInput) => ref.name === undefined || ref.id !== undefined)
  @IsDefined()
  @IsUuidString()
  id?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;
}

export const CampaignRef = () =>
  applyDecorators(
    ApiPropertyOptional({ type: CampaignRefInput, nullable: true }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => CampaignRefInput),
  );

/** The personalization and sharing fields of docs/api.md §4.3, with their bounds, in that order. */
export class LinkFieldsInput implements LinkAccessInput {
  @RequiredWhenGiven(1, 255) displayName?: string;
  @ClearableText(255) firstName?: string | null;
  @ClearableText(255) lastName?: string | null;
  @ClearableText(255) email?: string | null;
  @ClearableText(50) phone?: string | null;
  @ClearableText(255) role?: string | null;
  @ClearableText(255) company?: string | null;
  @ClearableText(10000) context?: string | null;
  @ClearableText(255) shareTitle?: string | null;
  @ClearableText(500) shareDescription?: string | null;
  @ClearableUrl() shareThumbnailUrl?: string | null;
  @ClearableUrl() prospectLogoUrl?: string | null;
  @ClearableText(255) prospectDomain?: string | null;

  @ApiPropertyOptional({ type: Boolean })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  active?: boolean;

  @ExpiresAt() expiresAt?: Date | null;
  @MaxHumanOpens() maxHumanOpens?: number | null;
  @ExpiredRedirectUrl() expiredRedirectUrl?: string | null;
}

export const LINK_TEXT_FIELDS = [
  'displayName',
  'firstName',
  'lastName',
  'email',
  'phone',
  'role',
  'company',
  'context',
  'shareTitle',
  'shareDescription',
  'shareThumbnailUrl',
  'prospectLogoUrl',
  'prospectDomain',
] as const;
export type LinkTextField = (typeof LINK_TEXT_FIELDS)[number];

/** Fields whose change re-renders the share card (docs/api.md §12.2). */
export const THUMBNAIL_AFFECTING_FIELDS: readonly LinkTextField[] = [
  'displayName',
  'firstName',
  'lastName',
  'company',
  'role',
  'shareTitle',
  'shareThumbnailUrl',
  'prospectLogoUrl',
  'prospectDomain',
];
