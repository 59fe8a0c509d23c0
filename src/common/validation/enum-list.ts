import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Multi-value enum filters (docs/api.md §11.2): `buying_intent=high,medium`. The string is split on commas
 * (empty items dropped); one unknown item fails the parameter as an `enum` issue naming the choices.
 */
export const ToCommaList = () =>
  Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item.length > 0)
      : value,
  );

export function IsEnumList(choices: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEnum',
      constraints: [choices],
      validator: { validate: (value) => Array.isArray(value) && value.every((item) => choices.includes(item as string)) },
    },
    options,
  );
}
