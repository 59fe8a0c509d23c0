import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';

/** The query parameters of each DTO that take several values, by class (inherited ones included). */
const LIST_PARAMETERS = new WeakMap<object, Set<string>>();

/**
 * Multi-value enum filters (docs/api.md §11.2): `buying_intent=high,medium`, the repeated form
 * `buying_intent=high&buying_intent=medium`, or a mix. Every value is split on commas (empty items
 * dropped); one unknown item fails the parameter as an `enum` issue naming the choices. `item`
 * maps each item (a canonical form) before validation.
 */
export const ToCommaList =
  (item: (text: unknown) => unknown = (text) => text): PropertyDecorator =>
  (target, key) => {
    const names = LIST_PARAMETERS.get(target.constructor) ?? new Set<string>();
    LIST_PARAMETERS.set(target.constructor, names.add(String(key)));
    Transform(({ value }: { value: unknown }) => {
      const list = typeof value === 'string' ? splitCommas(value) : value;
      return Array.isArray(list) ? list.map(item) : list;
    })(target, key);
  };

function splitCommas(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Whether `name` of the query DTO `dto` (or of a class it extends) takes several values. */
export function isListParameter(dto: object, name: string): boolean {
  for (
    let type: object | null = dto;
    type && type !== Function.prototype;
    type = Object.getPrototypeOf(type) as object | null
  ) {
    if (LIST_PARAMETERS.get(type)?.has(name)) return true;
  }
  return false;
}

export function IsEnumList(choices: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEnum',
      constraints: [choices],
      validator: {
        validate: (value) => Array.isArray(value) && value.every((item) => choices.includes(item as string)),
      },
    },
    options,
  );
}

/**
 * An optional multi-value enum query filter. The document declares every array query parameter as
 * a comma list (`style: form`, `explode: false`, common/http/openapi-document.ts): a generated
 * client sends `a=x,y`, which the server reads like `a=x&a=y`.
 */
export const EnumListFilter = (choices: readonly string[], description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', enum: [...choices] },
      description: `${description} One or more of ${choices.join(', ')}: comma-separated, repeated, or both.`,
    }),
    IsOptional(),
    ToCommaList(),
    IsEnumList(choices),
  );
