import { DomainError } from './domain-errors';

/**
 * What of an error may reach a log: its class, its code, the schema objects a database error names
 * and where it was thrown. Never its message: messages embed the values that caused them.
 * PostgreSQL's do (`invalid input syntax for type uuid: "…"`, and `detail` says
 * `Key (email)=(…) already exists`), TypeORM's QueryFailedError carries the statement and its
 * parameters and EntityNotFoundError the criteria, Node's ERR_INVALID_ARG_TYPE prints the value it
 * received. The stack keeps its frames only, since its first line repeats the message.
 */
export interface LoggedError {
  type: string;
  /** SQLSTATE for PostgreSQL errors, Node's error code (ECONNREFUSED, ERR_…) otherwise. */
  code?: string;
  /** What went wrong for a DomainError (not_found, conflict, …). */
  kind?: string;
  /** A fixed text: the original message is withheld. */
  message: string;
  /** PostgreSQL errors: identifiers of the objects involved, never values. */
  constraint?: string;
  table?: string;
  column?: string;
  stack?: string;
  cause?: LoggedError;
}

const CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const SQLSTATE = /^[0-9A-Z]{5}$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
const FRAME = /^\s+at /;
const MAX_CAUSES = 3;

interface ErrorFields {
  code?: unknown;
  severity?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

export function describeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error))
    return { type: error === null ? 'null' : typeof error, message: 'A non-Error value was thrown' };
  const fields = error as Error & ErrorFields;
  // TypeORM's QueryFailedError copies the driver's fields; the driver error is the source.
  const database = isDatabaseError(fields.driverError) ? fields.driverError : isDatabaseError(fields) ? fields : null;
  const described: LoggedError = {
    type: error.constructor.name || 'Error',
    message: database ? 'Database query failed' : 'Message withheld from logs',
  };
  const code = database ? database.code : fields.code;
  if (typeof code === 'string' && CODE.test(code)) described.code = code;
  if (error instanceof DomainError) described.kind = error.kind;
  if (database) {
    for (const name of ['constraint', 'table', 'column'] as const) {
      const value = database[name];
      if (typeof value === 'string' && IDENTIFIER.test(value)) described[name] = value;
    }
  }
  const frames = (error.stack ?? '').split('\n').filter((line) => FRAME.test(line));
  if (frames.length > 0) described.stack = frames.join('\n');
  if (fields.cause !== undefined && depth < MAX_CAUSES) described.cause = describeError(fields.cause, depth + 1);
  return described;
}

/** One line for a terminal (CLI errors): the type and code, nothing of the message. */
export function summarizeError(error: unknown): string {
  const { type, code, constraint } = describeError(error);
  return [type, code, constraint && `constraint ${constraint}`].filter(Boolean).join(' ');
}

function isDatabaseError(value: unknown): value is ErrorFields & { code: string } {
  if (typeof value !== 'object' || value === null) return false;
  const { code, severity } = value as ErrorFields;
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string';
}
