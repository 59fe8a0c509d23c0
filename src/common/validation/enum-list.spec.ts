import { plainToInstance } from 'class-transformer';
import { IsOptional, getMetadataStorage, validateSync } from 'class-validator';
import { IsEnumList, ToCommaList } from './enum-list';

/**
 * docs/api.md §11.2 / DECISIONS "Multi-value enum filters": `buying_intent=high,medium` is a
 * comma-separated list; empty items are ignored; an unknown value fails the whole parameter once.
 */
const CHOICES = ['high', 'medium', 'low', 'none'] as const;

class Filters {
  @IsOptional()
  @ToCommaList()
  @IsEnumList(CHOICES)
  buyingIntent?: string[] | string;
}

const check = (buyingIntent: unknown) => {
  const instance = plainToInstance(Filters, { buyingIntent });
  return { value: instance.buyingIntent, errors: validateSync(instance) };
};

describe('ToCommaList + IsEnumList', () => {
  it('splits a comma-separated value into the known choices', () => {
    const { value, errors } = check('high,medium');
    expect(value).toEqual(['high', 'medium']);
    expect(errors).toEqual([]);
  });

  it('accepts a single value', () => {
    expect(check('none')).toEqual({ value: ['none'], errors: [] });
  });

  it('ignores empty items and surrounding spaces', () => {
    expect(check(',high,,low,')).toEqual({ value: ['high', 'low'], errors: [] });
    expect(check(' high , low ')).toEqual({ value: ['high', 'low'], errors: [] });
  });

  it('keeps duplicates and order as given', () => {
    expect(check('low,high,low').value).toEqual(['low', 'high', 'low']);
  });

  it('fails the parameter once, as an enum issue naming the choices, for one unknown item', () => {
    const { errors } = check('high,bogus,worse');
    expect(errors).toHaveLength(1);
    expect(errors[0].property).toBe('buyingIntent');
    expect(Object.keys(errors[0].constraints ?? {})).toEqual(['isEnum']);
    expect(errors[0].contexts).toBeUndefined();
  });

  it('names the choices in the constraint metadata', () => {
    // The 422 mapping reads the choices from the validation metadata of the failed constraint.
    const metadata = getMetadataStorage()
      .getTargetValidationMetadatas(Filters, '', true, false)
      .filter((m) => m.propertyName === 'buyingIntent' && m.name === 'isEnum');
    expect(metadata).toHaveLength(1);
    expect(metadata[0].constraints).toEqual([CHOICES]);
  });

  it('is case-sensitive', () => {
    expect(check('High').errors).toHaveLength(1);
  });

  it('accepts a value of only commas as an empty list', () => {
    expect(check(',,')).toEqual({ value: [], errors: [] });
  });

  it('validates an already-split array (a repeated parameter) without re-splitting', () => {
    expect(check(['high', 'low']).errors).toEqual([]);
    expect(check(['high', 'bad']).errors).toHaveLength(1);
  });

  it('fails a value that is neither a string nor a list', () => {
    expect(check(42).errors).toHaveLength(1);
    expect(check({ high: true }).errors).toHaveLength(1);
  });

  it('leaves an absent parameter to IsOptional', () => {
    expect(check(undefined)).toEqual({ value: undefined, errors: [] });
  });
});
