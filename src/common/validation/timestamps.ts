import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * ISO 8601 timestamps as docs/api.md §1.1 accepts them: a date, or a date and time with an optional
 * offset; without an offset the time is UTC. Anything else stays a string and fails `isIso8601`,
 * which the 422 mapping reports as pydantic's `datetime_from_date_parsing`.
 */
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

export function parseTimestamp(value: string): Date | null {
  const match = ISO_TIMESTAMP.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const shift = offsetMinutes(offset);
  if (shift === null) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCDate() !== d) return null;
  date.setUTCHours(h, mi, s, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const time = date.getTime() - shift * 60_000;
  return Number.isFinite(time) ? new Date(time) : null;
}

/** Minutes east of UTC; null for an offset out of range (hours < 24, minutes < 60). */
function offsetMinutes(offset: string | undefined): number | null {
  if (!offset || offset === 'Z' || offset === 'z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4) || '0')];
  if (hours > 23 || minutes > 59) return null;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** Turns a valid timestamp string into a Date; other values pass through for the validator to report. */
export const ToTimestamp = () =>
  Transform(({ value }) => (typeof value === 'string' ? (parseTimestamp(value) ?? value) : value));

/** Passes only Dates produced by ToTimestamp (null/undefined are left to IsOptional). */
export function IsTimestamp(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIso8601',
      validator: { validate: (value) => value instanceof Date, defaultMessage: () => 'invalid datetime' },
    },
    options,
  );
}

/** Response form of docs/api.md §1.1: UTC with milliseconds and `Z`; null stays null. */
export function isoOrNull(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}

/** How a timestamp input is declared in the document: what parseTimestamp reads, a date or a date-time. */
export const TIMESTAMP_INPUT_SCHEMA: SchemaObject & { type: 'string' } = {
  type: 'string',
  anyOf: [
    { type: 'string', format: 'date-time' },
    { type: 'string', format: 'date' },
  ],
};

/** A timestamp query parameter or body field: declared as a date or a date-time, read as a Date. */
export const TimestampInput = (options: { required?: boolean; nullable?: boolean; description?: string } = {}) =>
  applyDecorators(
    ApiProperty({
      ...TIMESTAMP_INPUT_SCHEMA,
      required: options.required ?? false,
      nullable: options.nullable,
      description: options.description,
    }),
    options.required ? IsDefined() : IsOptional(),
    ToTimestamp(),
    IsTimestamp(),
  );
