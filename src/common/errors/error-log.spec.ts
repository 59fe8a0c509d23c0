import { QueryFailedError } from 'typeorm';
import { ConflictError } from './domain-errors';
import { describeError, summarizeError } from './error-log';

const EMAIL = 'ada.lovelace@example.com';

/** The fields pg's DatabaseError carries for a unique violation (message and detail quote values). */
function uniqueViolation(): Error {
  return Object.assign(new Error('duplicate key value violates unique constraint "people_email_key"'), {
    name: 'error',
    severity: 'ERROR',
    code: '23505',
    detail: `Key (email)=(${EMAIL}) already exists.`,
    schema: 'public',
    table: 'people',
    column: undefined,
    constraint: 'people_email_key',
    routine: '_bt_check_unique',
  });
}

describe('describeError', () => {
  it('describes a failed query by SQLSTATE, constraint and table, without statement, parameters, message or detail', () => {
    const error = new QueryFailedError('INSERT INTO people (email) VALUES ($1)', [EMAIL], uniqueViolation());
    const described = describeError(error);

    expect(described).toEqual({
      type: 'QueryFailedError',
      code: '23505',
      message: 'Database query failed',
      constraint: 'people_email_key',
      table: 'people',
      stack: expect.stringMatching(/^\s+at /),
    });
    const text = JSON.stringify(described);
    for (const secret of [EMAIL, 'INSERT INTO', 'duplicate key']) expect(text).not.toContain(secret);
  });

  it("drops a message that quotes the input (22P02) from both the message and the stack's first line", () => {
    const driver = Object.assign(new Error(`invalid input syntax for type uuid: "${EMAIL}"`), {
      severity: 'ERROR',
      code: '22P02',
    });
    const described = describeError(new QueryFailedError('SELECT 1 WHERE id = $1', [EMAIL], driver));
    expect(described).toMatchObject({ type: 'QueryFailedError', code: '22P02', message: 'Database query failed' });
    expect(JSON.stringify(described)).not.toContain(EMAIL);
  });

  it('keeps only identifier-shaped schema names', () => {
    const driver = Object.assign(uniqueViolation(), { constraint: `x" OR ${EMAIL}`, table: 'people' });
    expect(describeError(driver)).toEqual(expect.objectContaining({ type: 'Error', code: '23505', table: 'people' }));
    expect(describeError(driver).constraint).toBeUndefined();
  });

  it("describes any other error by type, code and frames: a TypeError's message may print a value", () => {
    const error = Object.assign(new TypeError(`The "path" argument must be of type string. Received '${EMAIL}'`), {
      code: 'ERR_INVALID_ARG_TYPE',
    });
    const described = describeError(error);
    expect(described).toEqual({
      type: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: 'Message withheld from logs',
      stack: expect.stringMatching(/^\s+at /),
    });
    expect(described.stack?.split('\n').every((line) => /^\s+at /.test(line))).toBe(true);
    expect(JSON.stringify(described)).not.toContain(EMAIL);
  });

  it('names the kind of a DomainError, and describes causes the same way', () => {
    const error = new Error('outer', { cause: new QueryFailedError('SELECT $1', [EMAIL], uniqueViolation()) });
    expect(describeError(new ConflictError())).toMatchObject({ type: 'ConflictError', kind: 'conflict' });
    expect(describeError(error).cause).toMatchObject({ type: 'QueryFailedError', code: '23505' });
    expect(JSON.stringify(describeError(error))).not.toContain(EMAIL);
  });

  it('shows nothing of a thrown non-Error value', () => {
    expect(describeError(EMAIL)).toEqual({ type: 'string', message: 'A non-Error value was thrown' });
    expect(describeError(null)).toEqual({ type: 'null', message: 'A non-Error value was thrown' });
  });

  it('summarizes an error on one line for a terminal', () => {
    expect(summarizeError(new QueryFailedError('SELECT $1', [EMAIL], uniqueViolation()))).toBe(
      'QueryFailedError 23505 constraint people_email_key',
    );
    expect(summarizeError(new RangeError(EMAIL))).toBe('RangeError');
  });
});
