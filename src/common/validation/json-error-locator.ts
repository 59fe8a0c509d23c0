/**
 * Where and why a JSON text fails to parse, worded as Python's `json` module reports it (FastAPI's
 * json_invalid: loc ["body", pos], ctx.error). V8's JSON.parse messages carry neither the same
 * words nor, for some errors, a position, so the text is scanned again the way CPython's decoder
 * scans it. Called only for bodies JSON.parse rejected or that nest deeper than allowed.
 *
 * The scan keeps its open arrays and objects on an explicit stack rather than recursing, so no
 * text (200,000 `[`) can overflow the call stack. A value nested deeper than `maxDepth` fails with
 * `recursion limit exceeded` (pydantic's own JSON parser's words) at its opening bracket.
 */
export interface JsonErrorLocation {
  position: number;
  reason: string;
}

export const RECURSION_LIMIT_EXCEEDED = 'recursion limit exceeded';

class DecodeError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(reason);
  }
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERALS = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity'];

export function locateJsonError(text: string, maxDepth = Infinity): JsonErrorLocation {
  try {
    const end = skip(text, scanValue(text, skip(text, 0), maxDepth));
    if (end !== text.length) throw new DecodeError('Extra data', end);
  } catch (error) {
    if (error instanceof DecodeError) return { position: error.position, reason: error.reason };
    throw error;
  }
  // Python would accept it (e.g. NaN); report where JSON itself stops.
  return { position: 0, reason: 'Expecting value' };
}

function skip(text: string, index: number): number {
  WHITESPACE.lastIndex = index;
  WHITESPACE.exec(text);
  return WHITESPACE.lastIndex;
}

/**
 * Scans one value starting exactly at `index` (nested values included); returns the index after it.
 * `open` holds the innermost containers still open: '{' or '['.
 */
function scanValue(text: string, start: number, maxDepth: number): number {
  const open: string[] = [];
  let index = start;
  for (;;) {
    // Here a value starts at `index`.
    const char = text[index];
    if (char === '{' || char === '[') {
      if (open.length >= maxDepth) throw new DecodeError(RECURSION_LIMIT_EXCEEDED, index);
      const close = char === '{' ? '}' : ']';
      const next = skip(text, index + 1);
      if (text[next] === close) {
        index = next + 1;
      } else {
        open.push(char);
        index = char === '{' ? scanKey(text, next) : next;
        continue;
      }
    } else {
      index = scanScalar(text, index);
    }
    // Here a value ended just before `index`: close containers until one expects another member.
    for (;;) {
      if (open.length === 0) return index;
      index = skip(text, index);
      const container = open[open.length - 1];
      const close = container === '{' ? '}' : ']';
      if (text[index] === close) {
        open.pop();
        index += 1;
        continue;
      }
      if (text[index] !== ',') throw new DecodeError("Expecting ',' delimiter", index);
      index = skip(text, index + 1);
      if (container === '{') index = scanKey(text, index);
      break;
    }
  }
}

/** A property name and its ':' at `index`; returns where the property's value starts. */
function scanKey(text: string, index: number): number {
  if (text[index] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', index);
  const after = skip(text, scanString(text, index));
  if (text[after] !== ':') throw new DecodeError("Expecting ':' delimiter", after);
  return skip(text, after + 1);
}

function scanScalar(text: string, index: number): number {
  const char = text[index];
  if (char === '"') return scanString(text, index);
  const literal = LITERALS.find((word) => text.startsWith(word, index));
  if (literal) return index + literal.length;
  NUMBER.lastIndex = index;
  if (char !== undefined && NUMBER.exec(text)) return NUMBER.lastIndex;
  throw new DecodeError('Expecting value', index);
}

function scanString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (text[index] === '"') return index + 1;
    if (code < 0x20) throw new DecodeError('Invalid control character at', index);
    if (text[index] === '\\') {
      const escape = text[index + 1];
      if (escape === undefined) break;
      if (escape === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6)))
          throw new DecodeError('Invalid \\uXXXX escape', index);
        index += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(escape)) throw new DecodeError('Invalid \\escape', index);
      index += 2;
      continue;
    }
    index++;
  }
  throw new DecodeError('Unterminated string starting at', start);
}
