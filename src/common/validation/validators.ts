import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { canonicalUuid, isUuid } from './uuid-format';

/** A UUID string in a form pydantic accepts becomes canonical; anything else is left for the validator to report as sent. */
const toCanonical = (value: unknown): unknown => canonicalUuid(value) ?? value;

/** Canonicalizes a UUID (or, with `each`, every UUID of a list) before validation, so only the canonical form reaches SQL. */
export const ToCanonicalUuid = (options?: { each?: boolean }) =>
  Transform(({ value }: { value: unknown }) =>
    options?.each && Array.isArray(value) ? value.map(toCanonical) : toCanonical(value),
  );

/** Any textual UUID pydantic's UUID type accepts (hyphenated, simple, urn, braced); the field holds its canonical form. */
export function IsUuidString(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ToCanonicalUuid({ each: options?.each }),
    ValidateBy({ name: 'isUuid', validator: { validate: (value) => isUuid(value) } }, options),
  );
}
