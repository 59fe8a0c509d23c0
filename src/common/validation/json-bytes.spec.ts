import { INVALID_UTF8, inspectJsonBytes, jsonTextFacts, MAX_JSON_DEPTH, NOT_UTF8_CHARSET } from './json-bytes';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('inspectJsonBytes', () => {
  it('passes UTF-8 JSON of any shape within the depth limit', () => {
    for (const text of [
      '{"name":"a"}',
      '"é 😀 \u202e مرحبا"',
      `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`,
      '{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',
      'not json at all',
    ]) {
      expect([text, inspectJsonBytes(bytes(text), 'utf-8')]).toEqual([text, null]);
    }
    expect(inspectJsonBytes(bytes('{}'), null)).toBeNull();
    expect(inspectJsonBytes(bytes('{}'), 'UTF8')).toBeNull();
  });

  it('refuses a charset other than UTF-8', () => {
    expect(inspectJsonBytes(bytes('{}'), 'utf-16le')).toEqual({ position: 0, reason: NOT_UTF8_CHARSET });
    expect(inspectJsonBytes(bytes('{}'), 'latin1')).toEqual({ position: 0, reason: NOT_UTF8_CHARSET });
  });

  it.each([
    ['a lone continuation byte', [0x80], 9],
    ['0xFF', [0xff], 9],
    ['a truncated sequence', [0xe0, 0xa4], 9],
    ['an overlong slash', [0xc0, 0xaf], 9],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80], 9],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 9],
  ])('refuses %s at its character offset', (_label, invalid, position) => {
    expect(inspectJsonBytes(bytes('{"name":"', invalid, '"}'), 'utf-8')).toEqual({ position, reason: INVALID_UTF8 });
  });

  it('counts the offset in characters of the valid text before the bad byte', () => {
    expect(inspectJsonBytes(bytes('{"n":"é😀', [0xff], '"}'), 'utf-8')).toEqual({ position: 9, reason: INVALID_UTF8 });
  });

  it('refuses nesting deeper than the limit at the bracket that opens it, valid or not', () => {
    const deep = MAX_JSON_DEPTH + 1;
    expect(inspectJsonBytes(bytes(`${'['.repeat(deep)}${']'.repeat(deep)}`), 'utf-8')).toEqual({
      position: MAX_JSON_DEPTH,
      reason: 'recursion limit exceeded',
    });
    expect(inspectJsonBytes(bytes('['.repeat(200_000)), 'utf-8')).toEqual({
      position: MAX_JSON_DEPTH,
      reason: 'recursion limit exceeded',
    });
    expect(inspectJsonBytes(bytes(`{"a":${'{"b":'.repeat(deep)}1${'}'.repeat(deep + 1)}`), 'utf-8')).toEqual({
      position: 5 + 5 * (MAX_JSON_DEPTH - 1),
      reason: 'recursion limit exceeded',
    });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = `["\\"${'['.repeat(200)}"]`;
    expect(inspectJsonBytes(bytes(text), 'utf-8')).toBeNull();
  });
});

describe('jsonTextFacts', () => {
  it('a body without \\u escapes cannot hold unstorable text; reserved keys show spelled out or escaped', () => {
    expect(jsonTextFacts(bytes('{"name":"é 😀 \\" \\\\ \\n"}'))).toEqual({
      mayHoldUnstorableText: false,
      mayHoldReservedKeys: false,
    });
    expect(jsonTextFacts(bytes('{"name":"a\\u0000"}'))).toEqual({
      mayHoldUnstorableText: true,
      mayHoldReservedKeys: true,
    });
    expect(jsonTextFacts(bytes('{"x":{"constructor":{}}}'))).toEqual({
      mayHoldUnstorableText: false,
      mayHoldReservedKeys: true,
    });
    expect(jsonTextFacts(bytes('{"__proto__":{}}'))).toEqual({
      mayHoldUnstorableText: false,
      mayHoldReservedKeys: true,
    });
    // The parsed value agrees: an escaped key is a reserved key.
    expect(Object.keys(JSON.parse('{"\\u005f_proto__":1}') as object)).toEqual(['__proto__']);
    expect(jsonTextFacts(bytes('{"\\u005f_proto__":1}')).mayHoldReservedKeys).toBe(true);
  });
});

describe('inspectJsonBytes on strings', () => {
  it('skips strings whatever they hold: escaped quotes, backslash runs, brackets', () => {
    const inner = `\\\\\\"${'['.repeat(100)}\\\\`;
    expect(inspectJsonBytes(bytes(`{"a":"${inner}","b":"${'{'.repeat(100)}"}`), 'utf-8')).toBeNull();
    // `"\\"` ends at its second quote: the brackets after it count.
    expect(inspectJsonBytes(bytes(`["\\\\",${'['.repeat(100)}`), 'utf-8')).toEqual({
      position: 69,
      reason: 'recursion limit exceeded',
    });
  });

  it('an unterminated string ends the scan (the parser reports it)', () => {
    expect(inspectJsonBytes(bytes(`["${'['.repeat(100)}`), 'utf-8')).toBeNull();
  });
});
