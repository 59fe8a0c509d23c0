import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { json, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { PayloadTooLargeError } from '../errors/domain-errors';
import { inspectJsonBytes, jsonTextFacts, MAX_JSON_DEPTH, NOT_UTF8_CHARSET, type JsonTextFacts } from './json-bytes';
import { locateJsonError, type JsonErrorLocation } from './json-error-locator';
import type { ValidationIssue } from '../errors/validation-issue';

/** The request body limit of every route that declares none (docs/api.md §8.6). */
const STANDARD_LIMIT_BYTES = 1024 * 1024;
const JSON_BODY_LIMIT = 'http:jsonBodyLimit';
const PARSE_ERROR = Symbol('bodyParseError');
const EMPTY_BODY = Symbol('emptyBody');
const TEXT_FACTS = Symbol('jsonTextFacts');

type WithParseError = Request & {
  [PARSE_ERROR]?: ValidationIssue;
  [EMPTY_BODY]?: boolean;
  [TEXT_FACTS]?: JsonTextFacts;
};

/** The route reads a JSON body of up to `bytes` instead of the standard 1 MiB; beyond it the answer is 413. */
export const JsonBodyLimit = (bytes: number) => SetMetadata(JSON_BODY_LIMIT, bytes);

/** The json_invalid issue recorded for this request's body, if its JSON was malformed. */
export function bodyParseErrorOf(req: Request): ValidationIssue | undefined {
  return (req as WithParseError)[PARSE_ERROR];
}

/** What the body's bytes tell about its parsed value (everything is possible when it was not read here). */
export function bodyTextFactsOf(req: Request): JsonTextFacts {
  return (req as WithParseError)[TEXT_FACTS] ?? { mayHoldUnstorableText: true, mayHoldReservedKeys: true };
}

const isJsonRequest = (req: IncomingMessage) => {
  const type = req.headers['content-type'];
  return type === undefined || /^application\/([\w.+-]+\+)?json\b/i.test(type);
};

/** Whether body-parser would read a body (type-is `hasBody`); a declared length of 0 is no body. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length === '0') return false;
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
}

/**
 * JSON body parsing, run by RequestValidationGuard once the key, the request rate and the scope have
 * been checked (docs/api.md §7.4): a request refused by any of them is answered without a byte of its
 * body being parsed. The limit is the route's @JsonBodyLimit() or the standard one; too large is a 413
 * at once. A malformed body is not answered here: it is recorded and reported as a 422 `json_invalid`
 * by validation.
 */
export class JsonBodyReader {
  private readonly parsers = new Map<number, RequestHandler>();

  constructor(private readonly reflector: Reflector) {}

  /** Sets req.body (undefined when absent, empty, `null` or malformed); undefined when there is nothing to read. */
  read(context: ExecutionContext): Promise<void> | undefined {
    if (context.getType() !== 'http') return undefined;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (!hasBody(req)) return undefined;
    const limit =
      this.reflector.getAllAndOverride<number | undefined>(JSON_BODY_LIMIT, [
        context.getHandler(),
        context.getClass(),
      ]) ?? STANDARD_LIMIT_BYTES;
    // A declared length over the limit is refused before a byte is read (the filter then closes the
    // connection): body-parser would read the whole body first.
    if (Number(req.headers['content-length']) > limit) throw new PayloadTooLargeError();
    const parse = this.parserFor(limit);
    return new Promise((resolve, reject) => {
      parse(req, http.getResponse<Response>(), (error?: unknown) => {
        try {
          settle(req, error as BodyParserError | undefined);
          resolve();
        } catch (failure) {
          reject(failure);
        }
      });
    });
  }

  private parserFor(limit: number): RequestHandler {
    let parser = this.parsers.get(limit);
    if (!parser) {
      // body-parser turns an empty body into {}; remember it was empty (also when sent chunked).
      // A body JSON.parse must not see (not UTF-8, nested too deep) is refused here, before parsing.
      const verify = (req: IncomingMessage, _res: unknown, buffer: Buffer, charset: string | null) => {
        if (buffer.length === 0) {
          (req as WithParseError)[EMPTY_BODY] = true;
          return;
        }
        const refused = inspectJsonBytes(buffer, charset);
        if (refused) throw new RefusedJsonError(refused);
        (req as WithParseError)[TEXT_FACTS] = jsonTextFacts(buffer);
      };
      parser = json({ strict: false, type: isJsonRequest, verify, limit });
      this.parsers.set(limit, parser);
    }
    return parser;
  }
}

function settle(req: WithParseError, error: BodyParserError | undefined): void {
  if (error?.type === 'entity.too.large') throw new PayloadTooLargeError();
  if (error) {
    req[PARSE_ERROR] = error instanceof RefusedJsonError ? jsonInvalid(error.location) : jsonInvalidIssue(error);
    req.body = undefined;
  } else if (req[EMPTY_BODY] || req.body === null) {
    // An empty or `null` body is an absent body (FastAPI: "Field required" at ["body"]).
    req.body = undefined;
  }
}

interface BodyParserError extends Error {
  type?: string;
  body?: string;
}

/** A body refused by inspectJsonBytes; body-parser hands this very error to the callback. */
class RefusedJsonError extends Error {
  constructor(readonly location: JsonErrorLocation) {
    super(location.reason);
  }
}

/** FastAPI's json_invalid issue, positioned and worded as Python's json module reports the error. */
function jsonInvalidIssue(error: BodyParserError): ValidationIssue {
  if (error.type === 'charset.unsupported') return jsonInvalid({ position: 0, reason: NOT_UTF8_CHARSET });
  return jsonInvalid(locateJsonError(typeof error.body === 'string' ? error.body : '', MAX_JSON_DEPTH));
}

function jsonInvalid({ position, reason }: JsonErrorLocation): ValidationIssue {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}
