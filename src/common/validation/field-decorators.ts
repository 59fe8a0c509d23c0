import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { TimestampInput } from './timestamps';
import { ApiInteger } from '../http/api-integer';

/**
 * Optional, nullable body fields with their OpenAPI description, one decorator each, so a DTO
 * reads as a list of fields and bounds. Absent and null are the same: unknown.
 */
/** A required string of `minLength`..`maxLength` characters. */
export const RequiredText = (minLength: number, maxLength: number) =>
  applyDecorators(
    ApiProperty({ type: String, minLength, maxLength }),
    IsDefined(),
    IsString(),
    MinLength(minLength),
    MaxLength(maxLength),
  );

export const OptionalText = (maxLength: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength, nullable: true }),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );

export const OptionalChoice = (choices: readonly string[]) =>
  applyDecorators(ApiPropertyOptional({ enum: choices, nullable: true }), IsOptional(), IsIn(choices as string[]));

export const OptionalTimestamp = () => TimestampInput({ nullable: true });

export const OptionalInteger = (minimum: number, maximum = 2_147_483_647) =>
  applyDecorators(
    ApiInteger({ required: false, minimum, maximum, nullable: true }),
    IsOptional(),
    IsInt(),
    Min(minimum),
    Max(maximum),
  );

export const OptionalNumber = (minimum: number, maximum: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: Number, minimum, maximum, nullable: true }),
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(minimum),
    Max(maximum),
  );

export const OptionalBoolean = () =>
  applyDecorators(ApiPropertyOptional({ type: Boolean, nullable: true }), IsOptional(), IsBoolean());

export const OptionalTextList = (maxItems: number, maxLength: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems, nullable: true }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsString({ each: true }),
    MaxLength(maxLength, { each: true }),
  );

export const OptionalObject = (type: () => new () => object, description?: string) =>
  // `type: () => ...`: the explorer takes only a function named `type` for a lazy reference.
  applyDecorators(
    ApiPropertyOptional({ type: () => type(), nullable: true, description }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(type),
  );

export const OptionalObjectList = (type: () => new () => object, maxItems: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: () => [type()], maxItems, nullable: true }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(type),
  );
