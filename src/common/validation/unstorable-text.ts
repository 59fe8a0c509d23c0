/**
 * Text PostgreSQL cannot store: `text` and `jsonb` refuse U+0000 (SQLSTATE 22021 / 22P05), and an
 * unpaired UTF-16 surrogate has no UTF-8 form (the driver would silently store U+FFFD instead).
 * Request validation reports such strings as a 422 `value_error` at their field before any SQL
 * runs (docs/api.md §7.3).
 */
export const NUL_CHARACTER_REASON = 'text must not contain the NUL character (U+0000)';
export const LONE_SURROGATE_REASON = 'text must not contain an unpaired surrogate (U+D800 to U+DFFF)';

/** With the `u` flag a surrogate pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableTextReason(text: string): string | null {
  if (text.includes('\u0000')) return NUL_CHARACTER_REASON;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_REASON;
  return null;
}

export interface UnstorableText {
  /** Property names and list indexes from the root to the string (or to the object key) found. */
  path: (string | number)[];
  reason: string;
}

/**
 * Every string value and object key under `root` that cannot be stored. Iterative, so no input is
 * deep enough to overflow the stack. Dates, buffers, maps and sets are not entered.
 */
export function findUnstorableText(root: unknown): UnstorableText[] {
  const found: UnstorableText[] = [];
  // Each entry links to its parent, so a path is built only for what is found.
  const stack: Step[] = [{ value: root, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      const reason = unstorableTextReason(value);
      if (reason) found.push({ path: pathOf(step), reason });
      continue;
    }
    if (!isTraversable(value)) continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const keyReason = typeof key === 'string' ? unstorableTextReason(key) : null;
      if (keyReason) found.push({ path: pathOf({ value: child, key, parent: step }), reason: keyReason });
      else stack.push({ value: child, key, parent: step });
    }
  }
  return found;
}

interface Step {
  value: unknown;
  key: string | number | null;
  parent: Step | null;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | null = step; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

function isTraversable(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  return !(value instanceof Date) && !ArrayBuffer.isView(value) && !(value instanceof Map) && !(value instanceof Set);
}
