/**
 * The `nextCursor` of a link's event timeline: null on the last page, else an opaque token for the
 * next page. Interim (issue 20 point 2 builds the shared, signed cursor in src/common/pagination):
 * this is the one place to swap for it.
 */
export function nextLinkEventsCursor(page: { offset: number; limit: number; total: number }): string | null {
  const next = page.offset + page.limit;
  return next < page.total ? Buffer.from(JSON.stringify({ offset: next })).toString('base64url') : null;
}
