import type { LinkWindowSql } from '../engagement';

/**
 * Read-only SQL over custom_links that other modules' statements embed (through the ports this
 * module registers), so a hot read stays one round trip. Every argument is a SQL expression.
 */

/** The campaign id of a link, or null. */
export function campaignOfLinkSql(organization: string, link: string): string {
  return `(SELECT campaign_id FROM custom_links WHERE organization_id = ${organization} AND id = ${link})`;
}

/** Columns (the ids by default) over the links created in a window, optionally of one campaign. */
export function linksInWindowSql(window: LinkWindowSql, columns = 'id'): string {
  return `SELECT ${columns} FROM custom_links
           WHERE organization_id = ${window.organization} AND (${window.from} IS NULL OR created_at >= ${window.from})
             AND (${window.to} IS NULL OR created_at <= ${window.to}) AND (${window.campaign} IS NULL OR campaign_id = ${window.campaign})`;
}

/** How many of the links in a SQL set of ids have each thumbnail status, as a json object. */
export function thumbnailStatusCountsSql(organization: string, linkIds: string): string {
  return `SELECT coalesce(jsonb_object_agg(s.thumbnail_status, s.n), '{}') AS thumbnails FROM (
            SELECT thumbnail_status, count(*)::int AS n FROM custom_links
             WHERE organization_id = ${organization} AND id IN (${linkIds}) GROUP BY thumbnail_status) s`;
}

/** Funnel link counts (docs/api.md §6.7) over the rows of custom_links a statement selects. */
export const LINK_FUNNEL_COLUMNS = `
  count(*)::int AS generated,
  count(*) FILTER (WHERE active)::int AS active,
  count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
  count(*) FILTER (WHERE stage IN ('started', 'engaged'))::int AS started,
  count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
  count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
  count(*) FILTER (WHERE first_meeting_clicked_at IS NOT NULL)::int AS meeting_clicked,
  count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
  count(*) FILTER (WHERE bot_open_count > 0 AND NOT open_observed)::int AS bot_scanned_only`;
