/**
 * An endpoint's filter (docs/api.md §16.7): it receives a link's lifecycle events only when the link
 * is one of `linkIds` or is filed, when the event is recorded, in one of `campaignIds`. Ids are
 * stored as given (canonical, deduplicated, sorted): an id of no link or campaign of the
 * organization is kept and matches nothing.
 */
export interface EndpointFilter {
  campaignIds: string[];
  linkIds: string[];
}

/** The filter to store, from a request's (canonical UUIDs; either list absent or null is empty). */
export function normalizeFilter(input: { campaignIds?: string[] | null; linkIds?: string[] | null }): EndpointFilter {
  return { campaignIds: sortedSet(input.campaignIds ?? []), linkIds: sortedSet(input.linkIds ?? []) };
}

/**
 * A filter that names nothing is refused rather than read as "every link" or "no link": either
 * reading surprises someone (a typo such as `linkIDs` would silently widen or silence the endpoint),
 * and `null` already says "every link".
 */
export function isEmptyFilter(filter: EndpointFilter): boolean {
  return filter.campaignIds.length === 0 && filter.linkIds.length === 0;
}

function sortedSet(ids: string[]): string[] {
  return [...new Set(ids)].sort();
}
