/**
 * The person an erasure is about (docs/api.md §18.2), as every module that holds personal data
 * matches it: an email compared case-insensitively (sessions' and people's email key, a link's
 * lower-cased email) and a phone compared by its digits alone.
 */
export interface DataSubject {
  /** The lower-cased, trimmed email; null when the erasure names a phone only. */
  emailKey: string | null;
  /** The phone's digits; null when the erasure names an email only. */
  phoneDigits: string | null;
}

export function emailKeyOf(email: string): string {
  return email.trim().toLowerCase();
}

export function phoneDigitsOf(phone: string): string {
  return phone.replace(/\D/g, '');
}

/**
 * The SQL of a phone column's digits: the expression the phone-digit indexes
 * are built on (migration SubjectLookups), so a query written with it is served by them.
 */
export function phoneDigitsSql(column: string): string {
  return `regexp_replace(${column}, '\\D', '', 'g')`;
}

/**
 * What a module found of the subject, which the erasure then looks for in stored text (webhook
 * messages, idempotent answers, export files): the ids of their records and their contacts (emails,
 * phones as stored), both specific to them; and their names, which are not (others share them) and
 * only decide what derived text of their own records goes.
 */
export interface SubjectTraces {
  ids: string[];
  contacts: string[];
  names: string[];
}

/** The distinct non-blank values among these. */
export function present(values: readonly (string | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => !!value?.trim()))];
}
