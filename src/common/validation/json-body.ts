import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { PayloadTooLargeError } from '../errors/domain-errors';
import { sendDomainError } from '../errors/error-response';
import { locateJsonError } from './json-error-locator';
import type { ValidationIssue } from './validation-issue';

const MIB = 1024 * 1024;
/** Link creation and event ingestion carry batches (docs/api.md §7.5). */
const LARGE_BODY_ROUTES = [/^\/api\/v1\/custom-links\/?$/, /^\/api\/v1\/events\/?$/];
const PARSE_ERROR = Symbol('bodyParseError');
const EMPTY_BODY = Symbol('emptyBody');

type WithParseError = Request & { [PARSE_ERROR]?: ValidationIssue; [EMPTY_BODY]?: boolean };

/** The json_invalid issue recorded for this request's body, if its JSON was malformed. */
export function bodyParseErrorOf(req: Request): ValidationIssue | undefined {
  return (req as WithParseError)[PARSE_ERROR];
}

const isJsonRequest = (req: IncomingMessage) => {
  const type = req.headers['content-type'];
  return type === undefined || /^application\/([\w.+-]+\+)?json\b/i.test(type);
};

/**
 * JSON body parsing. A malformed body is not answered here: it is recorded and reported as a 422
 * `json_invalid` after authentication (docs/api.md §7.4 puts 401 before 422). Too large is a 413 at once.
 */
export function jsonBodyParser(): RequestHandler[] {
  // body-parser turns an empty body into {}; remember it was empty (also when sent chunked).
  const verify = (req: IncomingMessage, _res: unknown, buffer: Buffer) => {
    if (buffer.length === 0) (req as WithParseError)[EMPTY_BODY] = true;
  };
  const options = { strict: false, type: isJsonRequest, verify };
  const standard = json({ ...options, limit: MIB });
  const large = json({ ...options, limit: 5 * MIB });
  const parse: RequestHandler = (req, res, next) => {
    if (req.headers['content-length'] === '0') return next();
    const parser = req.method === 'POST' && LARGE_BODY_ROUTES.some((r) => r.test(req.path)) ? large : standard;
    return parser(req, res, (error?: unknown) => {
      // An empty or `null` body is an absent body (FastAPI: "Field required" at ["body"]).
      if (!error && ((req as WithParseError)[EMPTY_BODY] || req.body === null)) req.body = undefined;
      next(error);
    });
  };
  const recordErrors = (error: BodyParserError, req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.too.large') return sendDomainError(res, new PayloadTooLargeError());
    (req as WithParseError)[PARSE_ERROR] = jsonInvalidIssue(error);
    req.body = undefined;
    next();
  };
  return [parse, recordErrors as unknown as RequestHandler];
}

interface BodyParserError extends Error {
  type?: string;
  body?: string;
}

/** FastAPI's json_invalid issue, positioned and worded as Python's json module reports the error. */
function jsonInvalidIssue(error: BodyParserError): ValidationIssue {
  const { position, reason } = locateJsonError(error.body ?? '');
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}
