/**
 * Describes why a string is not a UUID the way pydantic (Rust `uuid` crate) words it, for the
 * ctx.error of a `uuid_parsing` issue. Returns null for a valid UUID.
 */
const HEX = /^[0-9a-fA-F]$/;
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

export function describeUuidError(raw: string): string | null {
  const value = raw.startsWith('urn:uuid:') ? raw.slice('urn:uuid:'.length) : raw;
  const offset = raw.length - value.length;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char !== '-' && !HEX.test(char)) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${i + offset + 1}`;
    }
  }
  if (!value.includes('-')) {
    return value.length === 32 ? null : `invalid length: expected length 32 for simple format, found ${value.length}`;
  }
  const groups = value.split('-');
  if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
  for (let g = 0; g < 5; g++) {
    if (groups[g].length !== GROUP_LENGTHS[g]) {
      return `invalid group length in group ${g}: expected ${GROUP_LENGTHS[g]}, found ${groups[g].length}`;
    }
  }
  return null;
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && describeUuidError(value) === null;
}
