import type { EventHour } from '../engagement.repository';
import { FACET_NAMES, type FacetCount } from '../facets';
import { facetCountsOf } from './facet-counts';

const hour = new Date('2026-03-10T10:00:00Z');
const base: EventHour = {
  linkId: 'a',
  hour,
  type: 'open',
  bot: false,
  internal: false,
  country: 'DE',
  deviceType: 'mobile',
  browser: 'Safari',
  os: 'iOS',
  referrerDomain: null,
  utmSource: 'newsletter',
  utmMedium: 'email',
  utmCampaign: 'q1',
  events: 2,
};

describe('facetCountsOf', () => {
  const counts = facetCountsOf(
    [base, { ...base, linkId: 'b', country: 'FR', events: 3 }, { ...base, linkId: 'c', bot: true, events: 1 }],
    new Map([
      ['a', { campaignId: 'camp-1', accountDomain: 'acme.com' }],
      ['b', { campaignId: 'camp-1', accountDomain: null }],
    ]),
  );
  const of = (facet: string) =>
    counts
      .filter((c) => c.facet === facet)
      .map(({ value, bot, events }) => ({ value, bot, events }))
      .sort((x, y) => String(x.value).localeCompare(String(y.value)) || Number(x.bot) - Number(y.bot));

  it('counts every event once in every facet', () => {
    for (const facet of FACET_NAMES)
      expect({ facet, events: of(facet).reduce((sum, c) => sum + c.events, 0) }).toEqual({ facet, events: 6 });
  });

  it("files by the link's campaign and account domain (a link not found is unfiled), by context otherwise", () => {
    expect(of('campaign')).toEqual([
      { value: 'camp-1', bot: false, events: 5 },
      { value: null, bot: true, events: 1 },
    ]);
    expect(of('account_domain')).toEqual([
      { value: 'acme.com', bot: false, events: 2 },
      { value: null, bot: false, events: 3 },
      { value: null, bot: true, events: 1 },
    ]);
    expect(of('country')).toEqual([
      { value: 'DE', bot: false, events: 2 },
      { value: 'DE', bot: true, events: 1 },
      { value: 'FR', bot: false, events: 3 },
    ]);
    expect(of('all')).toEqual([
      { value: null, bot: false, events: 5 },
      { value: null, bot: true, events: 1 },
    ]);
  });

  it('keeps the hour, type and flags of each row', () => {
    expect(counts.every((c: FacetCount) => c.hour === hour && c.type === 'open' && !c.internal)).toBe(true);
  });
});
