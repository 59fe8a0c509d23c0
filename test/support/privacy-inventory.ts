import type { ClientBase } from 'pg';

/**
 * The data inventory of docs/privacy.md (issue 34 point 7) as a test reads it, and its check against
 * a migrated schema. The parsing is strict so that a typo fails rather than passes unseen: each table
 * sits under its own heading with exactly the header below, every row has exactly its cells, a table
 * or column is one backticked lower-case identifier, a text cell says something, and no column is
 * listed twice.
 */
export const INVENTORY_FILE = 'docs/privacy.md';

export const PERSONAL_HEADING = '## Personal data';
export const PERSONAL_HEADER = ['Table', 'Column', 'What it holds', 'Erasure', 'Retention', 'Kept by default'];
export const NOT_PERSONAL_HEADING = '## Not personal';
export const NOT_PERSONAL_HEADER = ['Table', 'Columns', 'Why not personal'];

/**
 * The column types that can hold personal data (information_schema's `data_type`): text, JSON,
 * binary and arrays. Numbers, booleans, times and uuids cannot hold a name or an email.
 */
export const TEXT_TYPES: ReadonlySet<string> = new Set([
  'text',
  'character varying',
  'character',
  'json',
  'jsonb',
  'bytea',
  'ARRAY',
]);

export interface PersonalEntry {
  line: number;
  table: string;
  column: string;
  holds: string;
  erasure: string;
  retention: string;
  keptByDefault: string;
}

export interface NotPersonalEntry {
  line: number;
  table: string;
  columns: string[];
  why: string;
}

export interface Inventory {
  personal: PersonalEntry[];
  notPersonal: NotPersonalEntry[];
}

export interface SchemaColumn {
  table: string;
  column: string;
  type: string;
}

const IDENTIFIER = '`([a-z_][a-z0-9_]*)`';
const ONE_IDENTIFIER = new RegExp(`^${IDENTIFIER}$`);
const IDENTIFIER_LIST = new RegExp(`^${IDENTIFIER}(, ${IDENTIFIER})*$`);
const SEPARATOR_CELL = /^:?-{3,}:?$/;
/** What a cell holds when its author meant to come back to it. */
const PLACEHOLDERS = new Set(['', '-', '–', '—', '?', 'tbd', 'todo', 'n/a', 'none yet']);

interface TableRow {
  line: number;
  cells: string[];
}

/** The one table under `heading` (up to the next heading of level 2 or higher): its data rows, header and separator checked. */
function tableUnder(lines: string[], heading: string, header: string[], problems: string[]): TableRow[] {
  const start = lines.indexOf(heading);
  if (start < 0) {
    problems.push(`${INVENTORY_FILE}: no heading "${heading}"`);
    return [];
  }
  if (lines.indexOf(heading, start + 1) >= 0) problems.push(`${INVENTORY_FILE}: the heading "${heading}" twice`);
  const next = lines.findIndex((text, i) => i > start && /^#{1,2} /.test(text));
  const section = lines.slice(start + 1, next < 0 ? undefined : next);
  const tables: TableRow[][] = [];
  section.forEach((text, i) => {
    if (!text.startsWith('|')) return;
    const row = { line: start + 2 + i, cells: cellsOf(text) };
    if (i > 0 && section[i - 1].startsWith('|')) tables[tables.length - 1].push(row);
    else tables.push([row]);
  });
  if (tables.length !== 1) {
    problems.push(`${INVENTORY_FILE}: under "${heading}", ${tables.length} tables instead of one`);
    return [];
  }
  const [head, separator, ...rows] = tables[0];
  if (JSON.stringify(head.cells) !== JSON.stringify(header)) {
    problems.push(`${INVENTORY_FILE}:${head.line}: the header is not | ${header.join(' | ')} |`);
    return [];
  }
  if (
    !separator ||
    separator.cells.length !== header.length ||
    !separator.cells.every((cell) => SEPARATOR_CELL.test(cell))
  ) {
    problems.push(`${INVENTORY_FILE}:${head.line + 1}: no separator row of ${header.length} cells under the header`);
    return [];
  }
  const whole: TableRow[] = [];
  for (const row of rows) {
    if (row.cells.length === header.length) whole.push(row);
    else problems.push(`${INVENTORY_FILE}:${row.line}: ${row.cells.length} cells instead of ${header.length}`);
  }
  return whole;
}

/** The cells of a table row; `\|` is not an escape here, so a row with a pipe in a cell has a cell too many. */
function cellsOf(text: string): string[] {
  const inner = text.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split('|').map((cell) => cell.trim());
}

function says(text: string): boolean {
  return !PLACEHOLDERS.has(text.toLowerCase());
}

/** The inventory of `markdown`, and what is malformed in it (a malformed row is left out of the inventory). */
export function parseInventory(markdown: string): { inventory: Inventory; problems: string[] } {
  const lines = markdown.split('\n');
  const problems: string[] = [];
  const personal: PersonalEntry[] = [];
  for (const { line, cells } of tableUnder(lines, PERSONAL_HEADING, PERSONAL_HEADER, problems)) {
    const [table, column, holds, erasure, retention, keptByDefault] = cells;
    const at = `${INVENTORY_FILE}:${line}`;
    const tableName = ONE_IDENTIFIER.exec(table)?.[1];
    const columnName = ONE_IDENTIFIER.exec(column)?.[1];
    if (!tableName) problems.push(`${at}: Table ${JSON.stringify(table)} is not one \`identifier\``);
    if (!columnName) problems.push(`${at}: Column ${JSON.stringify(column)} is not one \`identifier\``);
    const texts = { 'What it holds': holds, Erasure: erasure, Retention: retention, 'Kept by default': keptByDefault };
    for (const [name, text] of Object.entries(texts)) if (!says(text)) problems.push(`${at}: ${name} says nothing`);
    if (tableName && columnName)
      personal.push({ line, table: tableName, column: columnName, holds, erasure, retention, keptByDefault });
  }
  const notPersonal: NotPersonalEntry[] = [];
  for (const { line, cells } of tableUnder(lines, NOT_PERSONAL_HEADING, NOT_PERSONAL_HEADER, problems)) {
    const [table, columns, why] = cells;
    const at = `${INVENTORY_FILE}:${line}`;
    const tableName = ONE_IDENTIFIER.exec(table)?.[1];
    if (!tableName) problems.push(`${at}: Table ${JSON.stringify(table)} is not one \`identifier\``);
    if (!IDENTIFIER_LIST.test(columns))
      problems.push(`${at}: Columns ${JSON.stringify(columns)} is not a list of \`identifier\`s separated by ", "`);
    if (!says(why)) problems.push(`${at}: Why not personal says nothing`);
    if (tableName && IDENTIFIER_LIST.test(columns))
      notPersonal.push({ line, table: tableName, columns: [...columns.matchAll(/`([^`]+)`/g)].map((m) => m[1]), why });
  }
  const seen = new Map<string, number>();
  const listed = [
    ...personal.map(({ line, table, column }) => ({ line, key: `${table}.${column}` })),
    ...notPersonal.flatMap(({ line, table, columns }) =>
      columns.map((column) => ({ line, key: `${table}.${column}` })),
    ),
  ];
  for (const { line, key } of listed) {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, line);
    else problems.push(`${INVENTORY_FILE}:${line}: ${key} is listed again (first at line ${first})`);
  }
  return { inventory: { personal, notPersonal }, problems };
}

/**
 * Every column of every base table of `public`, partitioned parents included and their partitions
 * left out (they have the parent's columns), in table order.
 */
export async function schemaColumns(client: ClientBase): Promise<SchemaColumn[]> {
  const { rows } = await client.query<SchemaColumn>(
    `SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS "type"
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       JOIN pg_class k ON k.oid = format('%I.%I', c.table_schema, c.table_name)::regclass
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND NOT k.relispartition
      ORDER BY c.table_name, c.ordinal_position`,
  );
  return rows;
}

/**
 * What the inventory and the schema disagree on: each text, JSON, binary or array column in neither
 * list, and each entry naming a table or column the schema does not have.
 */
export function inventoryProblems(inventory: Inventory, schema: readonly SchemaColumn[]): string[] {
  const tables = new Set(schema.map(({ table }) => table));
  const columns = new Set(schema.map(({ table, column }) => `${table}.${column}`));
  const entries = [
    ...inventory.personal.map(({ line, table, column }) => ({ line, table, column })),
    ...inventory.notPersonal.flatMap(({ line, table, columns: named }) =>
      named.map((column) => ({ line, table, column })),
    ),
  ];
  const listed = new Set(entries.map(({ table, column }) => `${table}.${column}`));
  const unlisted = schema
    .filter(({ table, column, type }) => TEXT_TYPES.has(type) && !listed.has(`${table}.${column}`))
    .map(
      ({ table, column, type }) =>
        `${table}.${column} (${type}) is in neither the personal nor the not-personal list of ${INVENTORY_FILE}`,
    );
  const stale = entries
    .filter(({ table, column }) => !columns.has(`${table}.${column}`))
    .map(({ line, table, column }) =>
      tables.has(table)
        ? `${INVENTORY_FILE}:${line}: ${table}.${column}: the table has no such column`
        : `${INVENTORY_FILE}:${line}: ${table}.${column}: the schema has no table ${table}`,
    );
  return [...unlisted, ...stale];
}
