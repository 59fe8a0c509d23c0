/** An email search's grams are its substring's 3-grams (session_email_grams), overlapping. */
export const GRAM_LENGTH = 3;

/** How many grams a search asks the grams index for, once the organization's emails were sampled. */
export const SEARCHED_GRAMS = 3;

/** One gram of a searched substring: its hash and in how many sampled emails it occurs (0: none kept). */
export interface GramShare {
  hash: string;
  entries: number;
}

/**
 * The grams a search asks session_emails_grams_idx for (by hash, in substring order). Without a
 * sample, every gram, as the index cannot tell which are common. With one, the SEARCHED_GRAMS rarest
 * whose positions are a gram apart (a gram overlapping a rare one is often rare only through it, and
 * adds little), then the rarest of the rest up to that many: the bitmap scan decodes every asked
 * gram's posting list, whose length grows with the organization for a common gram, and the LIKE recheck
 * keeps the result exact whatever is asked (bench/RESULTS.md, "The email search's growth, taken apart").
 */
export function searchedGrams(grams: readonly GramShare[], sampled: boolean): string[] {
  if (!sampled || grams.length <= SEARCHED_GRAMS) return grams.map((gram) => gram.hash);
  const byRarity = grams.map((gram, at) => ({ ...gram, at })).sort((a, b) => a.entries - b.entries || a.at - b.at);
  const chosen: typeof byRarity = [];
  const apart = (gram: (typeof byRarity)[number]) =>
    chosen.every((other) => Math.abs(other.at - gram.at) >= GRAM_LENGTH);
  for (const gram of byRarity) if (chosen.length < SEARCHED_GRAMS && apart(gram)) chosen.push(gram);
  for (const gram of byRarity) if (chosen.length < SEARCHED_GRAMS && !chosen.includes(gram)) chosen.push(gram);
  return chosen.sort((a, b) => a.at - b.at).map((gram) => gram.hash);
}
