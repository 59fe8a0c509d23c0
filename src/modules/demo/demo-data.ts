import { createHash } from 'node:crypto';
import { seededRandom } from '../../common/seeded-random';

/**
 * A realistic demo dataset (docs/api.md §15.3 demo:seed): several people per business domain, free-mail
 * prospects, repeat visitors, qualified and booked ones, varied analysis, some transcripts. A
 * seeded generator makes it the same every run, and ids derive from the organization, so seeding
 * one organization twice upserts the same sessions instead of adding new ones.
 */
const COMPANIES = [
  { domain: 'northwind.com', business: 'Northwind Traders' },
  { domain: 'contoso.co.uk', business: 'Contoso Ltd' },
  { domain: 'initech.io', business: 'Initech' },
  { domain: 'globex.com', business: 'Globex Corporation' },
  { domain: 'umbrella.de', business: 'Umbrella GmbH' },
  { domain: 'acme.com', business: 'Acme' },
];
const FREE_MAIL = ['gmail.com', 'outlook.com', 'yahoo.com'];
const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Frances',
  'Edsger',
  'Radia',
  'John',
];
const LAST_NAMES = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Thompson',
  'Liskov',
  'Ritchie',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Backus',
];
const SOURCES = ['linkedin', 'google', 'newsletter', 'partner', null];
const PLACES = [
  { geoCity: 'San Francisco', geoRegion: 'CA', geoCountry: 'US' },
  { geoCity: 'London', geoRegion: 'England', geoCountry: 'GB' },
  { geoCity: 'Berlin', geoRegion: 'Berlin', geoCountry: 'DE' },
  { geoCity: null, geoRegion: null, geoCountry: 'FR' },
];
const INTENTS = ['high', 'medium', 'low', 'none'] as const;
const FEATURES = ['SSO', 'Analytics', 'CRM sync', 'Custom Links', 'API'];
const DAY_MS = 86_400_000;

export interface DemoSession {
  id: string;
  body: Record<string, unknown>;
}

function stableUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function demoSessions(organizationId: string, now: Date): DemoSession[] {
  const random = seededRandom(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const prospects: { email: string; name: string; business: string | null }[] = [];
  COMPANIES.forEach((company, c) => {
    for (let p = 0; p < 2 + (c % 3); p += 1) {
      const first = FIRST_NAMES[(c * 3 + p) % FIRST_NAMES.length];
      const last = LAST_NAMES[(c * 5 + p) % LAST_NAMES.length];
      const host = p === 2 ? `eu.${company.domain}` : company.domain;
      prospects.push({
        email: `${first}.${last}@${host}`.toLowerCase(),
        name: `${first} ${last}`,
        business: company.business,
      });
    }
  });
  FREE_MAIL.forEach((host, f) => {
    const first = FIRST_NAMES[(f * 7 + 1) % FIRST_NAMES.length];
    prospects.push({ email: `${first.toLowerCase()}${1980 + f}@${host}`, name: first, business: null });
  });

  const sessions: DemoSession[] = [];
  prospects.forEach((prospect, index) => {
    const visits = 1 + Math.floor(random() * 4);
    for (let visit = 0; visit < visits; visit += 1) {
      const start = new Date(now.getTime() - Math.floor(random() * 60 * DAY_MS));
      const minutes = 5 + Math.floor(random() * 40);
      const intent = pick(INTENTS);
      const qualified = intent === 'high' || (intent === 'medium' && random() < 0.5);
      const place = pick(PLACES);
      const source = pick(SOURCES);
      const feature = pick(FEATURES);
      const id = stableUuid(organizationId, 'demo-session', String(index), String(visit));
      const transcript =
        random() < 0.6
          ? {
              entries: [
                {
                  speaker: 'agent',
                  text: `Hi ${prospect.name.split(' ')[0]}, what brings you here today?`,
                  sequenceNumber: 1,
                  timestamp: start.toISOString(),
                },
                {
                  speaker: 'prospect',
                  text: `We are looking at ${feature} for our team.`,
                  sequenceNumber: 2,
                  timestamp: new Date(start.getTime() + 20_000).toISOString(),
                },
                {
                  speaker: 'agent',
                  text: `Let me show you how ${feature} works.`,
                  sequenceNumber: 3,
                  timestamp: new Date(start.getTime() + 45_000).toISOString(),
                },
              ],
            }
          : undefined;
      sessions.push({
        id,
        body: {
          displayId: `DEMO-${1000 + sessions.length}`,
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + minutes * 60_000).toISOString(),
          sessionType: pick(['ai_demo', 'guided_tour', 'voice_demo']),
          email: visit % 2 === 1 ? prospect.email.toUpperCase() : prospect.email,
          name: prospect.name,
          business: prospect.business,
          phone: random() < 0.4 ? `+1 555 01${String(index).padStart(2, '0')}` : null,
          qualificationStatus: qualified ? 'qualified' : 'unqualified',
          qualificationReason: qualified ? 'Budget, authority and timeline confirmed.' : 'No budget this year.',
          qualificationRationale: qualified
            ? 'Confirmed budget and a near-term timeline.'
            : 'Exploring only; no budget.',
          qualificationSource: random() < 0.15 ? 'manual' : 'automatic',
          qualificationAssessedAt: new Date(start.getTime() + (minutes + 1) * 60_000).toISOString(),
          qualificationRubricVersionId: 'rubric-v3',
          qualificationStage: pick(['awareness', 'evaluation', 'decision']),
          buyingIntent: intent,
          bookedStatus: qualified && random() < 0.5 ? 'booked' : 'not_booked',
          sessionStatus: 'completed',
          sentiment: pick(['positive', 'neutral', 'negative']),
          engagementLevel: pick(['high', 'medium', 'low']),
          primaryIntent: pick(['evaluate_product', 'pricing', 'integration_question']),
          summaryMarkdown: `**${prospect.name}** explored ${feature} (${minutes} min).`,
          budgetRange: qualified ? '$25k-$100k' : null,
          buyingTimeline: qualified ? pick(['this quarter', 'next quarter']) : null,
          decisionMakerRole: pick(['VP Sales', 'Head of RevOps', 'CTO', null]),
          isDecisionMaker: random() < 0.4,
          confidenceScore: Math.round(random() * 100) / 100,
          nextSteps: qualified ? ['Send pricing', 'Book a technical deep dive'] : ['Share a case study'],
          summaryBullets: [`Asked about ${feature}`, 'Compared with current tooling'],
          audioDurationSeconds: minutes * 60,
          timelineEvents: [
            {
              milestoneType: 'intro',
              description: 'Introductions',
              timestampOffsetS: 0,
              featuresMentioned: [],
              sequenceOrder: 1,
            },
            {
              milestoneType: 'demo',
              description: `Demo of ${feature}`,
              timestampOffsetS: 120,
              featuresMentioned: [feature],
              sequenceOrder: 2,
            },
          ],
          topics: [
            {
              topic: feature,
              interestLevel: intent === 'none' ? 'low' : intent,
              timeDiscussedS: 180,
              outcome: 'discussed',
            },
          ],
          objections:
            random() < 0.5
              ? [
                  {
                    objectionType: 'price',
                    description: 'Concerned about cost',
                    severity: 'medium',
                    handled: true,
                    resolutionNotes: 'Shared ROI calculator',
                    timestampOffsetS: 600,
                  },
                ]
              : [],
          tracking: {
            utmSource: source,
            utmMedium: source ? 'social' : null,
            utmCampaign: source ? 'q4-demo' : null,
            device: pick(['desktop', 'mobile']),
            browser: 'Chrome',
            os: pick(['macOS', 'Windows', 'iOS']),
            ...place,
          },
          environment: 'production',
          analysisStatus: 'analyzed',
          transcript,
        },
      });
    }
  });
  return sessions;
}

/** Custom Links for a few demo prospects: some with a provided card, one with a logo to fetch. */
export function demoLinks(): Record<string, unknown>[] {
  return COMPANIES.flatMap((company, c) =>
    [0, 1].map((p) => {
      const first = FIRST_NAMES[(c * 3 + p) % FIRST_NAMES.length];
      const last = LAST_NAMES[(c * 5 + p) % LAST_NAMES.length];
      return {
        firstName: first,
        lastName: last,
        company: company.business,
        email: `${first}.${last}@${company.domain}`.toLowerCase(),
        role: p === 0 ? 'VP Sales' : 'RevOps Lead',
        prospectDomain: company.domain,
        externalId: `demo-crm-${c}-${p}`,
        context: `Saw the ${company.business} team at the Q4 webinar.`,
        shareTitle: `A demo made for ${company.business}`,
        ...(p === 1 ? { shareThumbnailUrl: `https://cdn.example.com/demo/${company.domain}.png` } : {}),
      };
    }),
  );
}

/** Engagement on the demo links: most opened, some loaded by known visitors, a few sessions and conversions. */
export function demoEvents(
  organizationId: string,
  linkIds: string[],
  sessionIds: string[],
  now: Date,
): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  linkIds.forEach((customLinkId, i) => {
    const at = (minutesAgo: number) =>
      new Date(now.getTime() - (i + 1) * 3_600_000 - minutesAgo * 60_000).toISOString();
    const id = (kind: string) => stableUuid(organizationId, 'demo-event', String(i), kind);
    if (i % 6 === 5) {
      events.push({
        eventId: id('scan'),
        type: 'open',
        customLinkId,
        occurredAt: at(30),
        userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)',
      });
      return;
    }
    events.push({
      eventId: id('open'),
      type: 'open',
      customLinkId,
      occurredAt: at(30),
      userAgent: 'Mozilla/5.0 (Macintosh) Chrome/120 Safari/537.36',
    });
    events.push({
      eventId: id('load'),
      type: 'page_view',
      customLinkId,
      occurredAt: at(29),
      pageViewId: id('pv'),
      ...(i % 2 === 0 ? { visitorId: id('visitor') } : {}),
    });
    if (i % 3 === 2 || sessionIds[i] === undefined) return;
    const sessionId = sessionIds[i];
    events.push({ eventId: id('started'), type: 'session_started', customLinkId, occurredAt: at(28), sessionId });
    events.push({ eventId: id('engaged'), type: 'session_engaged', customLinkId, occurredAt: at(20), sessionId });
    if (i % 3 === 0)
      events.push({ eventId: id('lead'), type: 'lead_submitted', customLinkId, occurredAt: at(15), sessionId });
    if (i % 4 === 0)
      events.push({ eventId: id('meeting'), type: 'meeting_booked', customLinkId, occurredAt: at(10), sessionId });
  });
  return events;
}

/** A small sales playbook, a suggestion group for it and a conversation test. */
export function demoPlaybook() {
  return {
    sections: [
      { key: 'intro', title: 'Introduction', content: 'Greet the prospect by name and ask what brought them here.' },
      { key: 'discovery', title: 'Discovery', content: 'Ask about team size, current tooling and timeline.' },
      { key: 'pricing', title: 'Pricing', content: 'Plans start at $99 per seat per month; annual plans save 20%.' },
    ],
    suggestions: [
      {
        changeId: 'tone',
        sectionKey: 'intro',
        operation: 'replace',
        content: 'Greet the prospect by name, thank them for their time, and ask what brought them here.',
        rationale: 'Prospects responded better to a warmer opening.',
      },
      {
        changeId: 'security',
        sectionKey: 'security',
        operation: 'add',
        title: 'Security',
        content: 'We are SOC 2 Type II certified and support SSO.',
        rationale: 'Security came up in 30% of enterprise demos.',
      },
    ],
    tests: [
      { name: 'mentions pricing', sectionKey: 'pricing', mustContain: ['$99'] },
      { name: 'no guarantees', mustNotContain: ['guarantee'] },
    ],
  };
}
