import type { Selectable } from 'kysely';
import type { DB, Json } from './schema';

/**
 * Row types of the tables, from the types generated out of the migrated schema (schema.ts, `npm run
 * db:types`). A query's result type is built from these: `Row<'t'>` for `SELECT *`, `Pick<Row<'t'>,
 * ...>` for the columns it lists; an expression the query computes (a count, an alias, a JSON
 * aggregate) is typed next to the query, with the column types it reads taken from here. Renaming
 * or retyping a column then fails to compile wherever code reads it.
 */

/** A table's name. */
export type TableName = keyof DB;

/** A whole row of `T`, as pg returns it. */
export type Row<T extends TableName> = Selectable<DB[T]>;

/**
 * `R` with the columns of `S` narrowed to what the code keeps in them. The schema says what
 * PostgreSQL checks: a text column whose values a CHECK or the code limits to a few strings is
 * `string`, a jsonb column is any JSON value. The narrower type of each is written once, where the
 * rows are read: for a text column it must be a subtype of the column's type; for a jsonb column it
 * is the shape the code writes there, which only the code checks. A key that is not a column of `R`
 * fails to compile.
 */
export type Narrowed<
  R,
  S extends { [K in keyof S]: K extends keyof R ? (Json extends R[K] ? unknown : R[K]) : never },
> = Omit<R, keyof S> & S;

/**
 * `R` with the timestamp columns `K` read as the API writes them (isoTimestamp(): UTC text with
 * milliseconds) instead of as Date.
 */
export type IsoText<R, K extends keyof R> = Omit<R, K> & { [P in K]: null extends R[P] ? string | null : string };

/** `R` read through a LEFT JOIN: every column may be null. */
export type OuterJoined<R> = { [K in keyof R]: R[K] | null };
