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
