import { Injectable } from '@nestjs/common';
import { RollupLinksRegistry } from './rollup-links';

/** What tracking observed of sessions, as SQL the sessions module's detail read embeds (one round trip). */
@Injectable()
export class SessionObservations {
  constructor(private readonly links: RollupLinksRegistry) {}

  /**
   * SQL: a json array of the earliest human event of each type per link of the session row
   * `session` (an alias with organization_id and id), each with its link and that link's campaign,
   * oldest first (link_events_session_idx).
   */
  earliestEventsSql(session: string): string {
    const campaign = this.links.get().campaignOfLinkSql(`${session}.organization_id`, 'o.custom_link_id');
    return `coalesce((SELECT json_agg(json_build_object('custom_link_id', o.custom_link_id, 'campaign_id', ${campaign}, 'type', o.type, 'at', o.at) ORDER BY o.at)
      FROM (SELECT e.custom_link_id, e.type, min(e.occurred_at) AS at FROM link_events e
             WHERE e.organization_id = ${session}.organization_id AND e.session_id = ${session}.id AND NOT e.bot
             GROUP BY e.custom_link_id, e.type) o), '[]')`;
  }
}
