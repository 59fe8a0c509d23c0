import { searchedGrams, type GramShare } from './searched-grams';

/** Grams named by their position, with these sampled counts. */
const grams = (...entries: number[]): GramShare[] => entries.map((n, at) => ({ hash: `g${at}`, entries: n }));

describe('searchedGrams', () => {
  it('asks for every gram when the organization has no sample', () => {
    expect(searchedGrams(grams(900, 1, 0, 500, 2, 7), false)).toEqual(['g0', 'g1', 'g2', 'g3', 'g4', 'g5']);
  });

  it('asks for every gram of a substring with at most three', () => {
    expect(searchedGrams(grams(900, 1, 500), true)).toEqual(['g0', 'g1', 'g2']);
    expect(searchedGrams(grams(4), true)).toEqual(['g0']);
    expect(searchedGrams([], true)).toEqual([]);
  });

  it('takes the three rarest whose positions are a gram apart, in substring order', () => {
    expect(searchedGrams(grams(5, 900, 800, 4, 700, 600, 3, 900), true)).toEqual(['g0', 'g3', 'g6']);
  });

  it('passes over a rare gram overlapping a rarer one while others are apart', () => {
    // g1 and g2 overlap g0 (the rarest); g3 is the next gram apart from it, g6 the next from both.
    expect(searchedGrams(grams(0, 1, 2, 50, 60, 70, 80), true)).toEqual(['g0', 'g3', 'g6']);
  });

  it('fills up with the rarest overlapping grams when too few are apart', () => {
    expect(searchedGrams(grams(10, 0, 20, 30, 5), true)).toEqual(['g0', 'g1', 'g4']);
  });

  it('breaks ties by position', () => {
    expect(searchedGrams(grams(0, 0, 0, 0, 0, 0, 0), true)).toEqual(['g0', 'g3', 'g6']);
  });
});
