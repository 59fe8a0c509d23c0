export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** A cell a spreadsheet would run as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@]/;

/** The value at a dotted path (`engagement.stage`); undefined once a step is missing or null. */
function valueAt(item: object, column: string): unknown {
  let value: unknown = item;
  for (const key of column.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** One RFC 4180 field: quoted when it holds a quote, comma, CR or LF, quotes doubled. */
function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A cell's text: empty for null, numbers and booleans as JSON writes them, lists and free-form
 * objects as JSON text. Text that starts like a formula is prefixed with `'`; numbers are never
 * formulas (a negative number stays a number).
 */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return FORMULA_START.test(value) ? `'${value}` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** CSV lines end with CRLF (RFC 4180). */
export function csvLine(cells: string[]): string {
  return `${cells.map(field).join(',')}\r\n`;
}

export function csvRow(item: object, columns: string[]): string {
  return csvLine(columns.map((column) => cell(valueAt(item, column))));
}

/** NDJSON keeps every value verbatim: the item as its list returns it, one JSON text a line. */
export function ndjsonRow(item: object): string {
  return `${JSON.stringify(item)}\n`;
}
