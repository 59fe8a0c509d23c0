import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { PayloadTooLargeError } from '../errors/api-errors';
import { sendApiError } from '../errors/error-response';
import type { ValidationIssue } from './validation-issue';

const MIB = 1024 * 1024;
/** Link creation and event ingestion carry batches (CONTRACT §0). */
const LARGE_BODY_ROUTES = [/^\/api\/v1\/custom-links\/?$/, /^\/api\/v1\/events\/?$/];
const PARSE_ERROR = Symbol('bodyParseError');

type WithParseError = Request & { [PARSE_ERROR]?: ValidationIssue };

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
 * `json_invalid` after authentication (CONTRACT §8 puts 401 before 422). Too large is a 413 at once.
 */
export function jsonBodyParser(): RequestHandler[] {
  const options = { strict: false, type: isJsonRequest };
  const standard = json({ ...options, limit: MIB });
  const large = json({ ...options, limit: 5 * MIB });
  const parse: RequestHandler = (req, res, next) => {
    // An empty body is an absent body (FastAPI: "Field required" at ["body"]), not `{}`.
    if (req.headers['content-length'] === '0') return next();
    const parser = req.method === 'POST' && LARGE_BODY_ROUTES.some((r) => r.test(req.path)) ? large : standard;
    return parser(req, res, next);
  };
  const recordErrors = (error: BodyParserError, req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.too.large') return sendApiError(res, new PayloadTooLargeError());
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

/** Node's JSON.parse message reworded as Python's json module words it (FastAPI's ctx.error). */
function jsonInvalidIssue(error: BodyParserError): ValidationIssue {
  const message = error.message ?? '';
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : (error.body?.length ?? 0);
  let reason = 'Expecting value';
  if (/property name/i.test(message)) reason = 'Expecting property name enclosed in double quotes';
  else if (/Expected ',' or/i.test(message)) reason = "Expecting ',' delimiter";
  else if (/after JSON/i.test(message)) reason = 'Extra data';
  else if (/Bad control character/i.test(message)) reason = 'Invalid control character at';
  return { type: 'json_invalid', loc: ['body', offset], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}
