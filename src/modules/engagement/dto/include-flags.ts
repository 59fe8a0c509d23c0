import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { ToBoolean } from '../../../common/validation/coercion';

/** An optional boolean query flag, false unless sent (`include_bots`, `include_internal`). */
export const IncludeFlag = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, default: false, description }),
    IsOptional(),
    ToBoolean(),
    IsBoolean(),
  );
