/**
 * UUIDs as pydantic's UUID type reads them (the Rust `uuid` crate's `Uuid::parse_str`): hyphenated
 * (8-4-4-4-12), simple (32 hex digits), `urn:uuid:` + hyphenated, or `{` hyphenated `}`, any case.
 * Every accepted form is turned into the canonical lower-case hyphenated form before it reaches
 * PostgreSQL, which reads neither the URN form nor every other one (docs/DECISIONS.md, issue 17).
 */
const HEX = /^[0-9a-fA-F]$/;
const GROUP_LENGTHS = [8, 4, 4, 4, 12];
const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SIMPLE = /^[0-9a-fA-F]{32}$/;
const URN_PREFIX = 'urn:uuid:';

/** The canonical form (lower-case, hyphenated) of an accepted UUID string; null for anything else. */
export function canonicalUuid(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.length === 36) return HYPHENATED.test(value) ? value.toLowerCase() : null;
  if (value.length === 32) {
    if (!SIMPLE.test(value)) return null;
    const hex = value.toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  const inner = unwrap(value);
  return inner !== value && HYPHENATED.test(inner) ? inner.toLowerCase() : null;
}

export function isUuid(value: unknown): value is string {
  return canonicalUuid(value) !== null;
}

/** The braced or URN wrapping taken off, if the value has one. */
function unwrap(value: string): string {
  if (value.startsWith(URN_PREFIX)) return value.slice(URN_PREFIX.length);
  if (value.length >= 2 && value.startsWith('{') && value.endsWith('}')) return value.slice(1, -1);
  return value;
}

/**
 * Describes why a string is not a UUID the way pydantic (Rust `uuid` crate) words it, for the
 * ctx.error of a `uuid_parsing` issue. Returns null for a valid UUID.
 */
export function describeUuidError(raw: string): string | null {
  if (canonicalUuid(raw) !== null) return null;
  const value = unwrap(raw);
  const wrapped = value !== raw;
  const offset = raw.startsWith(URN_PREFIX) ? URN_PREFIX.length : wrapped ? 1 : 0;
  // The crate counts positions in UTF-8 bytes, from 1.
  let position = offset + 1;
  for (const char of value) {
    if (char !== '-' && !HEX.test(char)) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${position}`;
    }
    position += Buffer.byteLength(char);
  }
  if (!wrapped && !value.includes('-'))
    return `invalid length: expected length 32 for simple format, found ${value.length}`;
  const groups = value.split('-');
  if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
  for (let g = 0; g < 5; g++) {
    if (groups[g].length !== GROUP_LENGTHS[g]) {
      return `invalid group length in group ${g}: expected ${GROUP_LENGTHS[g]}, found ${groups[g].length}`;
    }
  }
  return 'failed to parse a UUID';
}
