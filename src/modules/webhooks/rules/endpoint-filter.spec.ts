import { isEmptyFilter, normalizeFilter } from './endpoint-filter';

describe('webhook endpoint filter', () => {
  const a = '0190a000-0000-7000-8000-00000000000a';
  const b = '0190a000-0000-7000-8000-00000000000b';

  it('stores each id once, sorted; an absent or null list is empty', () => {
    expect(normalizeFilter({ linkIds: [b, a, b], campaignIds: null })).toEqual({ campaignIds: [], linkIds: [a, b] });
    expect(normalizeFilter({ campaignIds: [b, b] })).toEqual({ campaignIds: [b], linkIds: [] });
  });

  it('is empty when it names no id', () => {
    expect(isEmptyFilter(normalizeFilter({}))).toBe(true);
    expect(isEmptyFilter(normalizeFilter({ campaignIds: [], linkIds: null }))).toBe(true);
    expect(isEmptyFilter(normalizeFilter({ linkIds: [a] }))).toBe(false);
  });
});
