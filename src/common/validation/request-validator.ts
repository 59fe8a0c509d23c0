import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import type { Request } from 'express';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  isIdempotentHandler,
  isValidIdempotencyKey,
} from './idempotency-key';
import { fastParserOf } from './fast-parse.decorator';
import { isListParameter } from './enum-list';
import { bodyParseErrorOf, bodyTextFactsOf } from './json-body';
import type { JsonTextFacts } from './json-bytes';
import { issueForRule, toValidationIssues } from './pydantic-mapping';
import { isStrictDto } from './strict-dto.decorator';
import { ParseUuidPipe } from './parse-uuid.pipe';
import { withoutReservedKeys } from './reserved-keys';
import { findUnstorableText, unstorableTextReason } from './unstorable-text';
import { isUuid } from './uuid-format';
import { RequestValidationError, valueError, type ValidationIssue } from '../errors/validation-issue';

/** The rule name under which unstorable text is reported (pydantic-mapping words it as a value_error). */
const UNSTORABLE_TEXT_RULE = 'storableText';

type Rule =
  | { location: 'path'; name: string }
  | { location: 'query'; dto: new () => object }
  | { location: 'header'; name: typeof IDEMPOTENCY_KEY_HEADER }
  | { location: 'body'; dto: new () => object };

interface RouteArg {
  index: number;
  data?: string;
  pipes?: unknown[];
}

const LOCATION_ORDER = { path: 0, query: 1, header: 2, body: 3 } as const;

/**
 * Validates every input of a route at once, before the handler runs, so one 422 lists the failing
 * fields of path, query, header and body in that order (docs/api.md §7.3). Pipes cannot do this: each
 * sees one parameter and the first to throw hides the rest.
 *
 * The rules come from the route's own decorators: `@Body()` / `@Query()` typed with a DTO class,
 * `@Param(name, ParseUuidPipe)`, and the Idempotency-Key header on `@Idempotent()` routes. Validated
 * DTO instances replace req.body / req.query, so `@Body()` and `@Query()` hand them to the handler.
 * Run by RequestValidationGuard, or by IdempotencyInterceptor on @Idempotent() routes (after the key).
 */
@Injectable()
export class RequestValidator {
  private readonly plans = new WeakMap<object, Rule[]>();

  /** Throws RequestValidationError (422) listing every invalid input of the route. */
  validate(context: ExecutionContext): void {
    if (context.getType() !== 'http') return;
    const rules = this.planFor(context);
    if (rules.length > 0) this.check(rules, context.switchToHttp().getRequest<Request>());
  }

  private planFor(context: ExecutionContext): Rule[] {
    const handler = context.getHandler();
    const cached = this.plans.get(handler);
    if (cached) return cached;
    const controller = context.getClass();
    const args: Record<string, RouteArg> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
    const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, handler.name) ?? [];
    const rules: Rule[] = [];
    for (const [key, arg] of Object.entries(args)) {
      const paramtype = Number(key.split(':')[0]);
      const type = types[arg.index];
      const isDto = typeof type === 'function' && ![String, Number, Boolean, Object, Array].includes(type as never);
      if (paramtype === RouteParamtypes.BODY && !arg.data && isDto)
        rules.push({ location: 'body', dto: type as new () => object });
      if (paramtype === RouteParamtypes.QUERY && !arg.data && isDto)
        rules.push({ location: 'query', dto: type as new () => object });
      if (
        paramtype === RouteParamtypes.PARAM &&
        arg.data &&
        arg.pipes?.some((p) => p === ParseUuidPipe || p instanceof ParseUuidPipe)
      ) {
        rules.push({ location: 'path', name: arg.data });
      }
    }
    if (isIdempotentHandler(handler)) rules.push({ location: 'header', name: IDEMPOTENCY_KEY_HEADER });
    rules.sort((a, b) => LOCATION_ORDER[a.location] - LOCATION_ORDER[b.location]);
    this.plans.set(handler, rules);
    return rules;
  }

  private check(rules: Rule[], req: Request): void {
    const issues: ValidationIssue[] = [];
    for (const rule of rules) {
      switch (rule.location) {
        case 'path': {
          const value = String(req.params[rule.name]);
          if (!isUuid(value)) issues.push(issueForRule('isUuid', [], ['path', rule.name], value, ''));
          break;
        }
        case 'query': {
          const raw = oneValueEach(rule.dto, req.query as Record<string, unknown>);
          const { value, issues: found } = validateDto(rule.dto, raw, 'query', QUERY_FACTS);
          issues.push(...found);
          Object.defineProperty(req, 'query', { value, configurable: true, enumerable: true, writable: true });
          break;
        }
        case 'header': {
          const value = req.headers[rule.name];
          if (typeof value === 'string' && !isValidIdempotencyKey(value)) {
            const [rule_, bound] = value.length < 1 ? ['minLength', 1] : ['maxLength', IDEMPOTENCY_KEY_MAX_LENGTH];
            issues.push(issueForRule(rule_, [bound], ['header', rule.name], value, ''));
          } else if (typeof value === 'string' && unstorableTextReason(value)) {
            issues.push(valueError(['header', rule.name], value, unstorableTextReason(value) as string));
          }
          break;
        }
        case 'body': {
          const parseError = bodyParseErrorOf(req);
          if (parseError) {
            issues.push(parseError);
            break;
          }
          const raw: unknown = req.body;
          if (raw === undefined) {
            issues.push({ type: 'missing', loc: ['body'], msg: 'Field required', input: null });
          } else if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
            issues.push({
              type: 'model_attributes_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary or object to extract fields from',
              input: raw,
            });
          } else {
            const { value, issues: found } = validateDto(rule.dto, raw, 'body', bodyTextFactsOf(req));
            issues.push(...found);
            req.body = value;
          }
          break;
        }
      }
    }
    if (issues.length > 0) throw new RequestValidationError(issues);
  }
}

/** A query is a few short strings: always walked. */
const QUERY_FACTS: JsonTextFacts = { mayHoldUnstorableText: true, mayHoldReservedKeys: true };

/**
 * `facts` lets a large body that cannot hold unstorable text or reserved keys skip those walks, and
 * try its DTO's fast parser (which knows neither check).
 */
function validateDto(
  dto: new () => object,
  raw: object,
  location: 'query' | 'body',
  facts: JsonTextFacts,
): { value: object; issues: ValidationIssue[] } {
  const parsed =
    location === 'body' && !facts.mayHoldUnstorableText && !facts.mayHoldReservedKeys
      ? fastParserOf(dto)?.(raw)
      : undefined;
  if (parsed) return { value: parsed, issues: [] };
  const value = plainToInstance(dto, facts.mayHoldReservedKeys ? withoutReservedKeys(raw) : raw);
  const errors = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: isStrictDto(dto),
    forbidUnknownValues: false,
  });
  for (const { path, reason } of facts.mayHoldUnstorableText ? findUnstorableText(value) : []) {
    // A query parameter is one string as sent, whatever its transform made of it (a comma list).
    addFieldError(errors, value, location === 'query' ? path.slice(0, 1) : path, reason);
  }
  return { value, issues: toValidationIssues(inFieldOrder(errors), location, raw) };
}

/**
 * Adds a broken rule at `path` to class-validator's error tree, as class-validator would have
 * reported it (intermediate entries hold only children; list items are named by their index), so
 * it is ordered and mapped with the other issues. A field that already breaks a rule keeps that
 * issue only (one issue per field).
 */
function addFieldError(errors: ValidationError[], root: object, path: (string | number)[], reason: string): void {
  let siblings = errors;
  let container: unknown = root;
  let error: ValidationError | undefined;
  for (const key of path) {
    const property = String(key);
    error = siblings.find((e) => e.property === property);
    if (error?.constraints && Object.keys(error.constraints).length > 0) return;
    if (!error) {
      error = Object.assign(new ValidationError(), {
        target: container as object,
        property,
        value: (container as Record<string, unknown>)[property],
        children: [],
      });
      siblings.push(error);
    }
    siblings = error.children ??= [];
    container = (container as Record<string, unknown>)[property];
  }
  if (error && siblings.length === 0) error.constraints = { [UNSTORABLE_TEXT_RULE]: reason };
}

/**
 * pydantic reports fields in model order, inherited fields first; class-validator lists a subclass's
 * own fields before its parent's. Errors are reordered by declaration, base class first, at every depth.
 */
function inFieldOrder(errors: ValidationError[]): ValidationError[] {
  const order = errors[0]?.target ? fieldOrder(errors[0].target.constructor) : [];
  // List items (numeric properties) keep their index order.
  const rank = (property: string) =>
    order.includes(property) ? order.indexOf(property) : /^\d+$/.test(property) ? Number(property) : order.length;
  return [...errors]
    .sort((a, b) => rank(a.property) - rank(b.property))
    .map((error) =>
      error.children?.length ? Object.assign(error, { children: inFieldOrder(error.children) }) : error,
    );
}

const fieldOrders = new WeakMap<object, string[]>();

function fieldOrder(type: object): string[] {
  const cached = fieldOrders.get(type);
  if (cached) return cached;
  const chain: object[] = [];
  for (
    let current: object | null = type;
    current && current !== Function.prototype;
    current = Object.getPrototypeOf(current) as object | null
  )
    chain.unshift(current);
  const all = getMetadataStorage().getTargetValidationMetadatas(type as new () => object, '', true, false);
  const order = [...new Set(chain.flatMap((cls) => all.filter((m) => m.target === cls).map((m) => m.propertyName)))];
  fieldOrders.set(type, order);
  return order;
}

/**
 * A repeated multi-value filter (`a=x&a=y`) reads as its comma form (`a=x,y`), so both forms and any
 * mix give the same list and the same 422; any other repeated parameter counts with its last value,
 * as FastAPI reads scalars.
 */
function oneValueEach(dto: object, query: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!Array.isArray(value)) result[key] = value;
    else if (isListParameter(dto, key) && value.every((item) => typeof item === 'string'))
      result[key] = value.join(',');
    else result[key] = value[value.length - 1];
  }
  return result;
}

/**
 * Validates query parameters held in a body (an export's `filters`) as their list validates its
 * query: the DTO instance, and the issues located under `at` (`["body","filters",name]`).
 */
export function validateNestedQuery<T extends object>(
  dto: new () => T,
  raw: Record<string, unknown>,
  at: (string | number)[],
): { value: T; issues: ValidationIssue[] } {
  const { value, issues } = validateDto(dto, raw, 'query', QUERY_FACTS);
  return { value: value as T, issues: issues.map((issue) => ({ ...issue, loc: [...at, ...issue.loc.slice(1)] })) };
}
