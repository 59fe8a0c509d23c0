import type { EventHour } from '../engagement.repository';
import { FACET_NAMES, type Facet, type FacetCount, type Filing } from '../facets';

/** Each facet's value for an hourly aggregate of a link filed so. */
const FACET_VALUES: Record<Facet, (hour: EventHour, filing: Filing) => string | null> = {
  all: () => null,
  country: (hour) => hour.country,
  device_type: (hour) => hour.deviceType,
  browser: (hour) => hour.browser,
  os: (hour) => hour.os,
  referrer_domain: (hour) => hour.referrerDomain,
  utm_source: (hour) => hour.utmSource,
  utm_medium: (hour) => hour.utmMedium,
  utm_campaign: (hour) => hour.utmCampaign,
  campaign: (_, filing) => filing.campaignId,
  account_domain: (_, filing) => filing.accountDomain,
};

const UNFILED: Filing = { campaignId: null, accountDomain: null };

/** The facet rows of hourly aggregates, one per key (a link missing from `filing` is unfiled). */
export function facetCountsOf(hours: readonly EventHour[], filing: ReadonlyMap<string, Filing>): FacetCount[] {
  const counts = new Map<string, FacetCount>();
  for (const hour of hours) {
    const link = filing.get(hour.linkId) ?? UNFILED;
    for (const facet of FACET_NAMES) {
      const value = FACET_VALUES[facet](hour, link);
      const key = JSON.stringify([facet, hour.hour.getTime(), value, hour.type, hour.bot, hour.internal]);
      const found = counts.get(key);
      if (found) found.events += hour.events;
      else
        counts.set(key, {
          facet,
          hour: hour.hour,
          value,
          type: hour.type,
          bot: hour.bot,
          internal: hour.internal,
          events: hour.events,
        });
    }
  }
  return [...counts.values()];
}
