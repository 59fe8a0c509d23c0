import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isUuid } from './uuid-format';

/** Any RFC 4122 textual UUID, hyphenated or not, as pydantic's UUID type accepts. */
export function IsUuidString(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isUuid', validator: { validate: (value) => isUuid(value) } }, options);
}
