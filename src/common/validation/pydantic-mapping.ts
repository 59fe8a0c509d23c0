import { getMetadataStorage, type ValidationArguments, type ValidationError } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { httpsUrlIssue, httpUrlIssue } from './http-url';
import { describeUuidError } from './uuid-format';
import { valueError, type IssueLocation, type ValidationIssue } from '../errors/validation-issue';

/**
 * Turns class-validator's errors into pydantic v2 issues (docs/api.md §7.3): one issue per failing
 * field, worded as pydantic words it, with the value the client sent as `input`.
 *
 * class-validator reports every broken rule of a field; pydantic stops at the first in the order
 * presence → type → bounds, so the rules are ranked below. Rule arguments (a max length, a minimum)
 * are not on ValidationError; they are read from class-validator's metadata for the DTO class.
 */
type Path = (string | number)[];

const RANK = [
  'isDefined',
  'whitelistValidation',
  'isArray',
  'nestedValidation',
  'isObject',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isUuid',
  'isIso8601',
  'isIn',
  'isEnum',
  'isNotEmpty',
  'minLength',
  'maxLength',
  'length',
  'min',
  'max',
  'arrayMinSize',
  'arrayMaxSize',
];

function rank(name: string): number {
  const index = RANK.indexOf(name);
  return index === -1 ? RANK.length : index;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function quoteChoices(values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function describeDatetimeError(value: string): string {
  if (value.length < 10) return 'input is too short';
  if (!/^\d{4}/.test(value)) return 'invalid character in year';
  if (!/^\d{4}-\d{2}/.test(value)) return 'invalid date separator, expected `-`';
  return 'invalid datetime format';
}

/**
 * The pydantic issue for one broken rule (named as class-validator names it); unknown rules are value
 * errors. `items`: the list a length rule measured, when `input` (as sent) is its comma form.
 */
export function issueForRule(
  rule: string,
  constraints: unknown[],
  loc: Path,
  input: unknown,
  fallbackMessage: string,
  items: unknown = input,
): ValidationIssue {
  const issue = (type: string, msg: string, ctx?: Record<string, unknown>): ValidationIssue =>
    ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input };
  const stringLength = typeof input === 'string' ? [...input].length : 0;
  switch (rule) {
    case 'whitelistValidation':
      return issue('extra_forbidden', 'Extra inputs are not permitted');
    case 'nestedValidation':
    case 'isObject':
      return issue('model_attributes_type', 'Input should be a valid dictionary or object to extract fields from');
    case 'isArray':
      return issue('list_type', 'Input should be a valid list');
    case 'isString':
      return issue('string_type', 'Input should be a valid string');
    case 'isInt':
      if (typeof input === 'string') {
        return issue('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
      }
      if (typeof input === 'number' && Number.isFinite(input)) {
        return issue('int_from_float', 'Input should be a valid integer, got a number with a fractional part');
      }
      return issue('int_type', 'Input should be a valid integer');
    case 'isNumber':
      return typeof input === 'string'
        ? issue('float_parsing', 'Input should be a valid number, unable to parse string as a number')
        : issue('float_type', 'Input should be a valid number');
    case 'isBoolean':
      return typeof input === 'string'
        ? issue('bool_parsing', 'Input should be a valid boolean, unable to interpret input')
        : issue('bool_type', 'Input should be a valid boolean');
    case 'isUuid': {
      if (typeof input !== 'string') return issue('uuid_type', 'UUID input should be a string, bytes or UUID object');
      const error = describeUuidError(input) ?? 'invalid UUID version';
      return issue('uuid_parsing', `Input should be a valid UUID, ${error}`, { error });
    }
    case 'isIso8601': {
      if (typeof input !== 'string') return issue('datetime_type', 'Input should be a valid datetime');
      const error = describeDatetimeError(input);
      return issue('datetime_from_date_parsing', `Input should be a valid datetime or date, ${error}`, { error });
    }
    case 'isIn': {
      const expected = quoteChoices(constraints[0] as unknown[]);
      return issue('literal_error', `Input should be ${expected}`, { expected });
    }
    case 'isEnum': {
      const expected = quoteChoices(Object.values(constraints[0] as object));
      return issue('enum', `Input should be ${expected}`, { expected });
    }
    case 'isNotEmpty':
    case 'minLength': {
      const min = rule === 'isNotEmpty' ? 1 : Number(constraints[0]);
      return issue('string_too_short', `String should have at least ${plural(min, 'character')}`, { min_length: min });
    }
    case 'maxLength': {
      const max = Number(constraints[0]);
      return issue('string_too_long', `String should have at most ${plural(max, 'character')}`, { max_length: max });
    }
    case 'length': {
      const [min, max] = constraints as number[];
      if (stringLength < min) {
        return issue('string_too_short', `String should have at least ${plural(min, 'character')}`, {
          min_length: min,
        });
      }
      return issue('string_too_long', `String should have at most ${plural(max, 'character')}`, { max_length: max });
    }
    case 'min':
      return issue('greater_than_equal', `Input should be greater than or equal to ${constraints[0]}`, {
        ge: constraints[0],
      });
    case 'max':
      return issue('less_than_equal', `Input should be less than or equal to ${constraints[0]}`, {
        le: constraints[0],
      });
    case 'isHttpUrl':
      return httpUrlIssue(loc, input);
    case 'isHttpsUrl':
      return httpsUrlIssue(loc, input);
    case 'arrayMinSize': {
      const min = Number(constraints[0]);
      const actual = Array.isArray(items) ? items.length : 0;
      return issue('too_short', `List should have at least ${plural(min, 'item')} after validation, not ${actual}`, {
        field_type: 'List',
        min_length: min,
        actual_length: actual,
      });
    }
    case 'arrayMaxSize': {
      const max = Number(constraints[0]);
      const actual = Array.isArray(items) ? items.length : 0;
      return issue('too_long', `List should have at most ${plural(max, 'item')} after validation, not ${actual}`, {
        field_type: 'List',
        max_length: max,
        actual_length: actual,
      });
    }
    default:
      return valueError(loc, input, fallbackMessage);
  }
}

function metadataFor(target: object | undefined, property: string): ValidationMetadata[] {
  if (!target) return [];
  return getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .filter((m) => m.propertyName === property);
}

function valueAt(root: unknown, path: Path): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Issues for the items of a list that break an `each: true` rule: one per failing index. */
function itemIssues(
  meta: ValidationMetadata,
  loc: Path,
  items: unknown,
  object: object,
  message: string,
): ValidationIssue[] {
  if (!Array.isArray(items)) return [];
  const Constraint = meta.constraintCls as new () => { validate(value: unknown, args: ValidationArguments): boolean };
  const validator = new Constraint();
  const issues: ValidationIssue[] = [];
  items.forEach((item, index) => {
    const args: ValidationArguments = {
      value: item,
      constraints: meta.constraints,
      targetName: '',
      object,
      property: meta.propertyName,
    };
    if (!validator.validate(item, args)) {
      issues.push(issueForRule(meta.name ?? meta.type, meta.constraints ?? [], [...loc, index], item, message));
    }
  });
  return issues;
}

/**
 * Maps the errors of one validated input. `raw` is what the client sent for that location (the
 * parsed JSON body, the query object, ...), so `input` shows values before any coercion.
 */
export function toValidationIssues(
  errors: ValidationError[],
  location: IssueLocation,
  raw: unknown,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (list: ValidationError[], path: Path) => {
    for (const error of list) {
      const property =
        /^\d+$/.test(error.property) && Array.isArray(valueAt(raw, path)) ? Number(error.property) : error.property;
      const fieldPath = [...path, property];
      const loc = [location, ...fieldPath];
      const rules = Object.keys(error.constraints ?? {});
      if (rules.length === 0) {
        walk(error.children ?? [], fieldPath);
        continue;
      }
      const input = valueAt(raw, fieldPath);
      if (input === undefined && !rules.includes('whitelistValidation')) {
        const enclosing = location === 'body' ? (valueAt(raw, path) ?? null) : null;
        issues.push({ type: 'missing', loc, msg: 'Field required', input: enclosing });
        continue;
      }
      const metadata = metadataFor(error.target, error.property);
      // A null fails isDefined too; pydantic reports it by the field's type.
      const candidates = rules.length > 1 ? rules.filter((r) => r !== 'isDefined') : rules;
      const rule = candidates.sort((a, b) => rank(a) - rank(b))[0];
      const meta = metadata.find((m) => (m.name ?? m.type) === rule);
      const message = error.constraints?.[rule] ?? rule;
      if (rule === 'nestedValidation' && Array.isArray(input)) {
        // A list of models whose items are not objects: pydantic reports each such item.
        input.forEach((item, index) => {
          if (item === null || typeof item !== 'object' || Array.isArray(item)) {
            issues.push({
              type: 'model_attributes_type',
              loc: [...loc, index],
              msg: 'Input should be a valid dictionary or object to extract fields from',
              input: item,
            });
          }
        });
      } else if (meta?.each && Array.isArray(input)) {
        issues.push(...itemIssues(meta, loc, input, error.target ?? {}, message));
      } else if (meta?.each) {
        issues.push(issueForRule('isArray', [], loc, input, message));
      } else {
        // A comma-list query parameter is validated as its list (error.value) but reported as sent.
        issues.push(issueForRule(rule, meta?.constraints ?? [], loc, input, message, error.value ?? input));
      }
    }
  };
  walk(errors, []);
  return issues;
}
