import {
  findUnstorableText,
  LONE_SURROGATE_REASON,
  NUL_CHARACTER_REASON,
  unstorableTextReason,
} from './unstorable-text';

describe('unstorableTextReason', () => {
  it('accepts any well-formed text without U+0000', () => {
    for (const text of [
      '',
      'plain',
      'é',
      '😀',
      '\u202eRTL',
      'e\u0301',
      '\u0001\u001f',
      '%_\\',
      "'; DROP TABLE x; --",
      '\ud83d\ude00',
    ]) {
      expect([text, unstorableTextReason(text)]).toEqual([text, null]);
    }
  });

  it('refuses U+0000 anywhere', () => {
    for (const text of ['\u0000', 'a\u0000b', 'end\u0000'])
      expect(unstorableTextReason(text)).toBe(NUL_CHARACTER_REASON);
  });

  it('refuses unpaired surrogates, high or low, anywhere', () => {
    for (const text of ['\ud800', 'a\udbff', '\udc00b', 'x\ude00\ud83d', '\ud83d\ude00\ud83d'])
      expect(unstorableTextReason(text)).toBe(LONE_SURROGATE_REASON);
  });
});

describe('findUnstorableText', () => {
  it('finds strings and object keys at their paths', () => {
    const value = { a: 'ok', b: ['x', 'y\u0000'], c: { d: { e: '\ud800' } }, ['k\u0000']: 1, when: new Date(0) };
    expect(findUnstorableText(value)).toEqual([
      { path: ['k\u0000'], reason: NUL_CHARACTER_REASON },
      { path: ['b', 1], reason: NUL_CHARACTER_REASON },
      { path: ['c', 'd', 'e'], reason: LONE_SURROGATE_REASON },
    ]);
  });

  it('finds nothing in clean values', () => {
    expect(findUnstorableText({ a: [1, true, null, 'x', { b: 'é' }] })).toEqual([]);
    expect(findUnstorableText('fine')).toEqual([]);
    expect(findUnstorableText(undefined)).toEqual([]);
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [found] = findUnstorableText(deep);
    expect(found.path).toHaveLength(100_000);
  });
});
