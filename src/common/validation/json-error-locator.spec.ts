import { locateJsonError } from './json-error-locator';

// Expected values are what CPython's json.loads raises for the same text.
describe('locateJsonError', () => {
  it.each([
    ['', 0, 'Expecting value'],
    ['{"name": ', 9, 'Expecting value'],
    ['{"name": x}', 9, 'Expecting value'],
    ['{"name" "a"}', 8, "Expecting ':' delimiter"],
    ['{"name":"a","b"}', 15, "Expecting ':' delimiter"],
    ['{"name":01}', 9, "Expecting ',' delimiter"],
    ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ["{'a': 1}", 1, 'Expecting property name enclosed in double quotes'],
    ['[1,]', 3, 'Expecting value'],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['{"a": 1} x', 9, 'Extra data'],
    ['{"a": "b', 6, 'Unterminated string starting at'],
    ['{"a": "b\u0001"}', 8, 'Invalid control character at'],
    ['{"a": "\\x"}', 7, 'Invalid \\escape'],
  ])('%j fails at %i: %s', (text, position, reason) => {
    expect(locateJsonError(text)).toEqual({ position, reason });
  });
});

describe('locateJsonError on deep nesting', () => {
  it('scans 200,000 open brackets without recursion and stops where the text ends', () => {
    expect(locateJsonError('['.repeat(200_000))).toEqual({ position: 200_000, reason: 'Expecting value' });
    expect(locateJsonError(`${'{"a":'.repeat(100_000)}`)).toEqual({ position: 500_000, reason: 'Expecting value' });
  });

  it('reports the bracket that opens one level too many', () => {
    expect(locateJsonError('['.repeat(200_000), 64)).toEqual({ position: 64, reason: 'recursion limit exceeded' });
    expect(locateJsonError(`${'{"k": '.repeat(70)}1${'}'.repeat(70)}`, 64)).toEqual({
      position: 64 * 6,
      reason: 'recursion limit exceeded',
    });
    const valid = `${'['.repeat(65)}${']'.repeat(65)}`;
    expect(locateJsonError(valid, 64)).toEqual({ position: 64, reason: 'recursion limit exceeded' });
  });

  it('accepts nesting up to the limit (then reports what else is wrong)', () => {
    expect(locateJsonError(`${'['.repeat(64)}${']'.repeat(64)} x`, 64)).toEqual({
      position: 129,
      reason: 'Extra data',
    });
    expect(locateJsonError(`[[1,[2]],{"a":[{}]},[]] ]`, 4)).toEqual({ position: 24, reason: 'Extra data' });
  });

  it('reports an earlier syntax error before the depth', () => {
    expect(locateJsonError(`[1 ${'['.repeat(100)}`, 64)).toEqual({ position: 3, reason: "Expecting ',' delimiter" });
  });
});
