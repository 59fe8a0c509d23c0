import type { Type } from '@nestjs/common';
import type { Scope } from '../../common/auth/scopes';
import type { PaginationQuery } from '../../common/pagination/pagination.query';
import { defineKeyedPort } from '../../common/wiring/port';

export const EXPORT_RESOURCES = ['sessions', 'people', 'accounts', 'custom_links', 'link_events'] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];

/** One page of a list as its GET returns it: the items and the cursor of the next page. */
export interface ExportPage {
  items: object[];
  nextCursor: string | null;
}

/**
 * A list that can be exported, implemented by the module that owns it: the rows are the list's own
 * records, read page by page through its own query and mapping (cursor pages, so rows inserted
 * meanwhile neither shift nor repeat any), never from its tables here.
 */
export interface ExportSource<Q extends PaginationQuery = PaginationQuery> {
  resource: ExportResource;
  /** Any one of them lets a key export the list (its GET's scopes). */
  scopes: Scope[];
  /** The list's query parameters (the export's `filters`), pagination apart. */
  filters: Type<Q>;
  /** The list item's response class: its OpenAPI properties name the CSV columns. */
  item: Type<object>;
  /** What the filters alone cannot tell (a named record exists), checked when the export is made. */
  check?(organizationId: string, filters: Q): Promise<void>;
  page(organizationId: string, query: Q): Promise<ExportPage>;
}

/** One source per resource, every resource with one (checked at start). */
export const EXPORT_SOURCES = defineKeyedPort<ExportSource, ExportResource>('export sources', {
  keysOf: (source) => source.resource,
  required: EXPORT_RESOURCES,
});
