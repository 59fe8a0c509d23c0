/** The OpenAPI description of an `asOf` (docs/api.md §6.4), for every rollup that carries one. */
export const AS_OF =
  'Every event accepted (answered by POST /api/v1/events, or opened at GET /l/{slug}) before this instant is counted here; later ones may not be yet (the fold runs within seconds).';
