/**
 * Where and why a JSON text fails to parse, worded as Python's `json` module reports it (FastAPI's
 * json_invalid: loc ["body", pos], ctx.error). V8's JSON.parse messages carry neither the same
 * words nor, for some errors, a position, so the text is scanned again the way CPython's decoder
 * scans it. Called only for bodies JSON.parse rejected.
 */
export interface JsonErrorLocation {
  position: number;
  reason: string;
}

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

export function locateJsonError(text: string): JsonErrorLocation {
  try {
    let end = parseValue(text, skip(text, 0));
    end = skip(text, end);
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

/** Parses one value starting exactly at `index`; returns the index after it. */
function parseValue(text: string, index: number): number {
  const char = text[index];
  if (char === '"') return parseString(text, index);
  if (char === '{') return parseObject(text, index);
  if (char === '[') return parseArray(text, index);
  const literal = LITERALS.find((word) => text.startsWith(word, index));
  if (literal) return index + literal.length;
  NUMBER.lastIndex = index;
  if (char !== undefined && NUMBER.exec(text)) return NUMBER.lastIndex;
  throw new DecodeError('Expecting value', index);
}

function parseString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (text[index] === '"') return index + 1;
    if (code < 0x20) throw new DecodeError('Invalid control character at', index);
    if (text[index] === '\\') {
      const escape = text[index + 1];
      if (escape === undefined) break;
      if (escape === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) throw new DecodeError('Invalid \\uXXXX escape', index);
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

function parseObject(text: string, start: number): number {
  let index = skip(text, start + 1);
  if (text[index] === '}') return index + 1;
  for (;;) {
    if (text[index] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', index);
    index = skip(text, parseString(text, index));
    if (text[index] !== ':') throw new DecodeError("Expecting ':' delimiter", index);
    index = skip(text, parseValue(text, skip(text, index + 1)));
    if (text[index] === '}') return index + 1;
    if (text[index] !== ',') throw new DecodeError("Expecting ',' delimiter", index);
    index = skip(text, index + 1);
  }
}

function parseArray(text: string, start: number): number {
  let index = skip(text, start + 1);
  if (text[index] === ']') return index + 1;
  for (;;) {
    index = skip(text, parseValue(text, index));
    if (text[index] === ']') return index + 1;
    if (text[index] !== ',') throw new DecodeError("Expecting ',' delimiter", index);
    index = skip(text, index + 1);
  }
}
