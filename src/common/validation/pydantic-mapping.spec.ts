import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { ToBoolean, ToInteger, Trim } from './coercion';
import { toValidationIssues } from './pydantic-mapping';
import { IsUuidString } from './validators';

class Campaign {
  @IsUuidString()
  id: string;
}

class Sample {
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(5)
  name: string;

  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  @IsIn(['activate', 'deactivate', 'move'])
  action?: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @IsUuidString({ each: true })
  ids?: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => Campaign)
  campaign?: Campaign;
}

const UUID = '0190b3b0-7a1c-7cc0-8000-000000000001';

function issuesFor(raw: Record<string, unknown>, location: 'body' | 'query' = 'body') {
  const errors = validateSync(plainToInstance(Sample, raw), { whitelist: true });
  return toValidationIssues(errors, location, raw);
}

describe('toValidationIssues (class-validator → pydantic v2)', () => {
  it('reports a missing field with the enclosing object as input', () => {
    expect(issuesFor({})).toEqual([{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} }]);
  });

  it('reports a missing query parameter with input null', () => {
    expect(issuesFor({}, 'query')).toEqual([
      { type: 'missing', loc: ['query', 'name'], msg: 'Field required', input: null },
    ]);
  });

  it('reports the type before the bounds, once per field', () => {
    expect(issuesFor({ name: 12345678 })).toEqual([
      { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: 12345678 },
    ]);
  });

  it('words string bounds as pydantic does, with "1 character" singular', () => {
    expect(issuesFor({ name: '   ' })[0]).toEqual({
      type: 'string_too_short',
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      input: '   ',
      ctx: { min_length: 1 },
    });
    expect(issuesFor({ name: 'abcdef' })[0]).toMatchObject({
      type: 'string_too_long',
      msg: 'String should have at most 5 characters',
      ctx: { max_length: 5 },
    });
  });

  it('distinguishes an unparsable string from a wrong type and a fraction for integers', () => {
    expect(issuesFor({ name: 'a', limit: 'abc' }, 'query')[0]).toEqual({
      type: 'int_parsing',
      loc: ['query', 'limit'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: 'abc',
    });
    expect(issuesFor({ name: 'a', limit: true })[0]).toMatchObject({
      type: 'int_type',
      msg: 'Input should be a valid integer',
    });
    expect(issuesFor({ name: 'a', limit: 1.5 })[0]).toMatchObject({ type: 'int_from_float' });
  });

  it('keeps the string input of a coerced number that breaks a bound', () => {
    expect(issuesFor({ name: 'a', limit: '0' }, 'query')).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    expect(issuesFor({ name: 'a', limit: '201' }, 'query')[0]).toMatchObject({
      type: 'less_than_equal',
      ctx: { le: 200 },
    });
  });

  it('accepts what pydantic lax mode accepts', () => {
    expect(issuesFor({ name: 'a', limit: '7', active: 'yes' })).toEqual([]);
    expect(issuesFor({ name: 'a', active: 'maybe' })[0]).toMatchObject({ type: 'bool_parsing', input: 'maybe' });
    expect(issuesFor({ name: 'a', active: 2 })[0]).toMatchObject({ type: 'bool_type' });
  });

  it('lists the allowed literals', () => {
    expect(issuesFor({ name: 'a', action: 'delete' })[0]).toEqual({
      type: 'literal_error',
      loc: ['body', 'action'],
      msg: "Input should be 'activate', 'deactivate' or 'move'",
      input: 'delete',
      ctx: { expected: "'activate', 'deactivate' or 'move'" },
    });
  });

  it('reports list sizes and each bad item at its index', () => {
    expect(issuesFor({ name: 'a', ids: [] })[0]).toEqual({
      type: 'too_short',
      loc: ['body', 'ids'],
      msg: 'List should have at least 1 item after validation, not 0',
      input: [],
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    });
    expect(issuesFor({ name: 'a', ids: [UUID, UUID, UUID] })[0]).toMatchObject({
      type: 'too_long',
      ctx: { max_length: 2, actual_length: 3 },
    });
    expect(issuesFor({ name: 'a', ids: [UUID, 'nope'] })).toEqual([
      expect.objectContaining({ type: 'uuid_parsing', loc: ['body', 'ids', 1], input: 'nope' }),
    ]);
    expect(issuesFor({ name: 'a', ids: 'x' })[0]).toMatchObject({
      type: 'list_type',
      msg: 'Input should be a valid list',
    });
  });

  it('follows nested objects into their fields', () => {
    expect(issuesFor({ name: 'a', campaign: { id: 'zz' } })).toEqual([
      {
        type: 'uuid_parsing',
        loc: ['body', 'campaign', 'id'],
        msg: expect.stringMatching(/^Input should be a valid UUID, invalid character/),
        input: 'zz',
        ctx: { error: expect.any(String) },
      },
    ]);
    expect(issuesFor({ name: 'a', campaign: 'x' })[0]).toMatchObject({
      type: 'model_attributes_type',
      loc: ['body', 'campaign'],
    });
    expect(issuesFor({ name: 'a', campaign: {} })[0]).toEqual({
      type: 'missing',
      loc: ['body', 'campaign', 'id'],
      msg: 'Field required',
      input: {},
    });
  });

  it('reports every failing field, in declaration order', () => {
    expect(issuesFor({ limit: 0, action: 'x' }).map((i) => i.loc)).toEqual([
      ['body', 'name'],
      ['body', 'limit'],
      ['body', 'action'],
    ]);
  });
});
