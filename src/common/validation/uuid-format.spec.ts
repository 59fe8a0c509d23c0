import { describeUuidError, isUuid } from './uuid-format';

describe('describeUuidError', () => {
  it('accepts hyphenated, simple, upper-case and urn forms', () => {
    for (const value of ['0190b3b0-7a1c-7cc0-8000-000000000001', '0190B3B07A1C7CC08000000000000001', 'urn:uuid:0190b3b0-7a1c-7cc0-8000-000000000001']) {
      expect(describeUuidError(value)).toBeNull();
      expect(isUuid(value)).toBe(true);
    }
  });

  it('words each failure as the Rust uuid crate does', () => {
    expect(describeUuidError('abc')).toBe('invalid length: expected length 32 for simple format, found 3');
    expect(describeUuidError('0190b3b0-7a1c-7cc0-8000')).toBe('invalid group count: expected 5, found 4');
    expect(describeUuidError('0190b3b0-7a1c-7cc0-8000-00000000001')).toBe('invalid group length in group 4: expected 12, found 11');
    expect(describeUuidError('x190b3b0-7a1c-7cc0-8000-000000000001')).toBe(
      'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
    );
  });

  it('rejects non-strings', () => {
    expect(isUuid(42)).toBe(false);
  });
});
