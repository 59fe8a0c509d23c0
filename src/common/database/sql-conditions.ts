/**
 * A WHERE clause built from optional filters with numbered parameters, so repositories write each
 * filter once and never splice user input into SQL.
 */
export class SqlConditions {
  private readonly clauses: string[] = [];

  constructor(readonly params: unknown[] = []) {}

  /** Adds a clause; `$?` in it stands for the value's parameter. */
  add(clause: string, value: unknown): this {
    this.params.push(value);
    this.clauses.push(clause.replaceAll('$?', `$${this.params.length}`));
    return this;
  }

  /** Adds a clause that takes no parameter. */
  clause(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  /** Adds a clause when the value is given (not undefined, not an empty list). */
  addIf(clause: string, value: unknown): this {
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return this;
    return this.add(clause, value);
  }

  /** The next parameter's placeholder after pushing `value`. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  toSql(): string {
    return this.clauses.join(' AND ');
  }
}

/** A case-insensitive substring pattern for LIKE on a lower-cased column; wildcards match literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
