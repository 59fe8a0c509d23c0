import { canonicalUuid, describeUuidError, isUuid } from './uuid-format';

const CANONICAL = '0190b3b0-7a1c-7cc0-8000-00000000000a';

describe('canonicalUuid', () => {
  it('turns every form pydantic accepts into the lower-case hyphenated form', () => {
    for (const value of [
      CANONICAL,
      '0190B3B0-7A1C-7CC0-8000-00000000000A',
      '0190b3b07a1c7cc0800000000000000a',
      '0190B3B07A1C7CC0800000000000000A',
      `urn:uuid:${CANONICAL}`,
      `{${CANONICAL}}`,
      `{${CANONICAL.toUpperCase()}}`,
    ]) {
      expect([value, canonicalUuid(value)]).toEqual([value, CANONICAL]);
      expect(isUuid(value)).toBe(true);
      expect(describeUuidError(value)).toBeNull();
    }
  });

  it('refuses the forms the Rust uuid crate refuses', () => {
    for (const value of [
      'urn:uuid:0190b3b07a1c7cc0800000000000000a',
      'URN:UUID:0190b3b0-7a1c-7cc0-8000-00000000000a',
      '{0190b3b07a1c7cc0800000000000000a}',
      `{${CANONICAL}`,
      `${CANONICAL}}`,
      `(${CANONICAL})`,
      ` ${CANONICAL}`,
      `${CANONICAL}\u0000`,
      '0190b3b0-7a1c7cc0-8000-0000-0000000a',
      '',
    ]) {
      expect([value, canonicalUuid(value)]).toEqual([value, null]);
      expect(describeUuidError(value)).toEqual(expect.any(String));
    }
  });

  it('refuses non-strings', () => {
    expect(canonicalUuid(42)).toBeNull();
    expect(canonicalUuid(null)).toBeNull();
    expect(isUuid(['0190b3b07a1c7cc0800000000000000a'])).toBe(false);
  });
});

describe('describeUuidError', () => {
  it('words each failure as the Rust uuid crate does', () => {
    expect(describeUuidError('abc')).toBe('invalid length: expected length 32 for simple format, found 3');
    expect(describeUuidError('0190b3b0-7a1c-7cc0-8000')).toBe('invalid group count: expected 5, found 4');
    expect(describeUuidError('0190b3b0-7a1c-7cc0-8000-00000000001')).toBe(
      'invalid group length in group 4: expected 12, found 11',
    );
    expect(describeUuidError('x190b3b0-7a1c-7cc0-8000-000000000001')).toBe(
      'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
    );
  });

  it('counts positions after a urn prefix or a brace, in UTF-8 bytes', () => {
    expect(describeUuidError('urn:uuid:0190b3b07a1c7cc0800000000000000a')).toBe(
      'invalid group count: expected 5, found 1',
    );
    expect(describeUuidError('urn:uuid:0190b3b0-7a1c-7cc0-8000-00000000000z')).toMatch(/found `z` at 45$/);
    expect(describeUuidError('{0190b3b0-7a1c-7cc0-8000-00000000000z}')).toMatch(/found `z` at 37$/);
    expect(describeUuidError('é0\u0000')).toMatch(/found `é` at 1$/);
    expect(describeUuidError('0é\u0000')).toMatch(/found `é` at 2$/);
    expect(describeUuidError('éé\u0000')).toMatch(/found `é` at 1$/);
    expect(describeUuidError('00\u0000')).toBe(
      'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `\u0000` at 3',
    );
  });
});
