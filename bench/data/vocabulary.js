// Vocabulary: names, companies, places and the word lists the generated rows pick from.
'use strict';

/**
 * A list where each entry appears in proportion to its weight: {a: 3, b: 1} → [a, a, a, b]; the key NULL is null.
 * @template {Record<string, number>} W
 * @param {W} weights
 * @returns {W extends { NULL: number } ? (string | null)[] : string[]}
 */
function weighted(weights) {
  const list = Object.entries(weights).flatMap(([value, weight]) =>
    Array(weight).fill(value === 'NULL' ? null : value),
  );
  return /** @type {W extends { NULL: number } ? (string | null)[] : string[]} */ (list);
}

const FIRST_NAMES =
  `James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph
Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven
Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald
Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna
Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander
Debra Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Jose Julie Adam
Olivia Nathan Joyce Henry Virginia Zachary Victoria Douglas Kelly Peter Lauren Kyle Christina Noah Joan Ethan Evelyn Jeremy Judith
Walter Megan Christian Andrea Keith Cheryl Roger Hannah Terry Jacqueline Austin Martha Sean Gloria Gerald Teresa Carl Ann Harold
Sara Dylan Madison Arthur Frances Lawrence Kathryn Jordan Janice Jesse Jean Bryan Abigail Billy Sophia Bruce Chloe Gabriel Grace
Logan Isabella Alan Natalie Juan Mia Albert Charlotte Elijah Zoe Wayne Camila Vincent Alice Mason Lucia Ralph Ingrid Russell Freya
Bradley Priya Philip Ananya Eugene Aisha Lukas Fatima Felix Mei Jonas Yuki Mateo Sofia Luca Chiara Hugo Camille Pierre Elodie
Matthias Katrin Arjun Divya Rahul Sneha Wei Hiroshi Sakura Omar Leila Diego Valentina Sven Maja Nikolai Olga Tomasz Zofia Kwame
Amara José Zoë Renée Søren Björn Åsa François Noémie`.split(/\s+/);

const LAST_NAMES =
  `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King
Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans
Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson
Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price
Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson
Barnes Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes
Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods
Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez
Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer
Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Spencer Hawkins Arnold Pierce
Hansen Peters Santos Hart Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Berry Perkins Hoffman
Müller Schneider Fischer Weber Becker Schulz Dubois Lefèvre Moreau Laurent Rossi Russo Ferrari Esposito Bianchi Sharma Gupta
Singh Kumar Iyer Reddy Wang Zhang Liu Yang Huang Tanaka Suzuki Sato Watanabe Kowalski Nowak Andersson Johansson Larsen Nielsen
Virtanen O'Brien O'Connor De_Vries Jansen Okafor Mensah Haddad Cohen Levi Da_Silva Costa Pereira Oliveira`
    .split(/\s+/)
    .map((n) => n.replace('_', ' '));

/**
 * An email-safe form of a name: accents dropped, letters only, lower case ("O'Brien" → "obrien").
 * @param {string} name
 */
const emailSafe = (name) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

const COMPANY_PREFIXES =
  `Blue North Bright Apex Cedar Quantum Silver Summit Iron Red Green Clear Swift True Prime Nova Atlas Vector Delta
Orbit Pioneer Golden Harbor Maple Oak Pine River Stone Sky Sun Star Wave Peak Bold Open Smart Rapid Silent Crystal Fusion Hyper
Meta Omni Pixel Cloud Data Signal Bridge Core Edge Echo Flux Grid Helix Ion Jet Kite Lumen Mosaic Nimbus Onyx Polar Quartz Radiant
Sage Terra Ultra Vivid Zen Amber Arc Aurora Beacon Birch Cobalt Coral Crest Dawn Ember Falcon Fjord Forge Glacier Granite Hawk
Horizon Indigo Juniper Keystone Lark Lotus Mesa Meridian Nexus Oasis Opal Orchid Paragon Prairie Quill Raven Redwood Ridge Sable
Sequoia Sierra Solstice Spruce Tidal Torch Trident Union Valley Willow Zephyr Copper Lunar Crimson`.split(/\s+/);
const COMPANY_CORES =
  `wave stone field path logic forge bridge point works labs soft ware scale stack flow mind sight shift line link base
cast gate hub loop mark net port quest rise scope sense sphere spring stream tech trail vault view wise bit byte cloud craft dash
deck desk dock drive grid leaf lift light map mesh mint nest note pad peak pilot pulse rail ray reach root route run sail seed ship
spark spot sync tide track verse wing yard ly io ify able hq ops metrics ledger haven vista bloom wood well ton ford dale brook gen
matic lytics`.split(/\s+/);
const COMPANY_KINDS = [
  '',
  '',
  '',
  'Labs',
  'Technologies',
  'Software',
  'Systems',
  'Analytics',
  'Health',
  'Group',
  'AI',
  'Cloud',
  'Logistics',
  'Robotics',
  'Capital',
  'Partners',
  'Security',
  'Energy',
  'Media',
  'Bio',
  'Networks',
  'Financial',
  'Insurance',
  'Retail',
  'Foods',
  'Manufacturing',
  'Consulting',
  'Learning',
  'Mobility',
  'Payments',
  'Data',
];
const LEGAL_SUFFIXES = ['Inc.', 'Ltd', 'LLC', 'GmbH', 'Corp.', 'S.A.', 'B.V.'];
const TLDS = weighted({
  com: 60,
  io: 9,
  co: 4,
  ai: 4,
  'co.uk': 6,
  de: 4,
  fr: 2,
  'com.au': 2,
  nl: 2,
  ca: 2,
  net: 2,
  'com.br': 1,
  es: 1,
  se: 1,
});
/**
 * The country of a country-code TLD.
 * @type {Record<string, string>}
 */
const TLD_COUNTRY = {
  'co.uk': 'GB',
  de: 'DE',
  fr: 'FR',
  'com.au': 'AU',
  nl: 'NL',
  ca: 'CA',
  'com.br': 'BR',
  es: 'ES',
  se: 'SE',
};
const SUBDOMAINS = ['eu', 'us', 'uk', 'emea', 'corp', 'mail', 'apac', 'na', 'global'];

/** country|region|city|UTC offset (hours)|calling code; empty region or city: unknown. */
const PLACES =
  `US|California|San_Francisco|-8|1 US|California|Los_Angeles|-8|1 US|New_York|New_York|-5|1 US|Texas|Austin|-6|1
US|Texas|Dallas|-6|1 US|Washington|Seattle|-8|1 US|Massachusetts|Boston|-5|1 US|Illinois|Chicago|-6|1 US|Colorado|Denver|-7|1
US|Georgia|Atlanta|-5|1 US|Florida|Miami|-5|1 US|North_Carolina|Raleigh|-5|1 US|Utah|Salt_Lake_City|-7|1 US|||-6|1
GB|England|London|0|44 GB|England|Manchester|0|44 GB|Scotland|Edinburgh|0|44 GB|England|Bristol|0|44 DE|Berlin|Berlin|1|49
DE|Bavaria|Munich|1|49 DE|Hamburg|Hamburg|1|49 DE|Hesse|Frankfurt|1|49 FR|Île-de-France|Paris|1|33 FR|Auvergne-Rhône-Alpes|Lyon|1|33
FR|||1|33 CA|Ontario|Toronto|-5|1 CA|British_Columbia|Vancouver|-8|1 CA|Quebec|Montreal|-5|1 AU|New_South_Wales|Sydney|10|61
AU|Victoria|Melbourne|10|61 IN|Karnataka|Bengaluru|5|91 IN|Maharashtra|Mumbai|5|91 IN|Delhi|New_Delhi|5|91
NL|North_Holland|Amsterdam|1|31 NL|South_Holland|Rotterdam|1|31 BR|São_Paulo|São_Paulo|-3|55 ES|Madrid|Madrid|1|34
ES|Catalonia|Barcelona|1|34 SE|Stockholm|Stockholm|1|46 SG||Singapore|8|65 IE|Leinster|Dublin|0|353 JP|Tokyo|Tokyo|9|81
IT|Lombardy|Milan|1|39 CH|Zurich|Zurich|1|41 PL|Masovia|Warsaw|1|48 MX|CDMX|Mexico_City|-6|52 ZA|Western_Cape|Cape_Town|2|27
IL|Tel_Aviv|Tel_Aviv|2|972`
    .split(/\s+/)
    .map((p) => p.replace(/_/g, ' '));
const COUNTRY_WEIGHTS = {
  US: 42,
  GB: 11,
  DE: 7,
  CA: 6,
  FR: 5,
  AU: 4,
  IN: 5,
  NL: 3,
  BR: 2,
  ES: 2,
  SE: 2,
  SG: 2,
  IE: 2,
  JP: 1,
  IT: 1,
  CH: 1,
  PL: 1,
  MX: 1,
  ZA: 1,
  IL: 1,
};

const VOCAB = {
  first_names: FIRST_NAMES,
  first_keys: FIRST_NAMES.map(emailSafe),
  last_names: LAST_NAMES,
  last_keys: LAST_NAMES.map(emailSafe),
  places: PLACES,
  /** Place indexes weighted by country (for prospects at free mail or abroad). */
  weighted_places: Object.entries(COUNTRY_WEIGHTS).flatMap(([country, weight]) => {
    const indexes = PLACES.map((p, i) => [p, String(i + 1)])
      .filter(([p]) => p.startsWith(`${country}|`))
      .map(([, i]) => i);
    return Array.from({ length: weight * 4 }, (_, k) => indexes[k % indexes.length]);
  }),
  free_hosts: weighted({
    'gmail.com': 55,
    'outlook.com': 12,
    'yahoo.com': 10,
    'hotmail.com': 8,
    'icloud.com': 5,
    'proton.me': 2,
    'aol.com': 2,
    'gmx.de': 2,
    'web.de': 1,
    'yahoo.co.uk': 1,
    'live.com': 2,
  }),
  roles: [
    'VP Sales',
    'Head of Sales',
    'Sales Director',
    'Account Executive',
    'SDR Manager',
    'Head of RevOps',
    'RevOps Manager',
    'VP Marketing',
    'Head of Growth',
    'Demand Gen Manager',
    'Product Marketing Manager',
    'CMO',
    'CRO',
    'CEO',
    'Founder',
    'COO',
    'CTO',
    'VP Engineering',
    'Head of Customer Success',
    'Sales Enablement Lead',
    'Marketing Operations Manager',
    'Chief of Staff',
    'Procurement Manager',
    'IT Director',
  ],
  decision_roles: [
    'VP Sales',
    'CRO',
    'CEO',
    'Head of RevOps',
    'CMO',
    'CTO',
    'Director of Sales',
    'Founder',
    null,
    null,
  ],
  intents: weighted({ high: 12, medium: 26, low: 34, none: 20, NULL: 8 }),
  session_types: weighted({ ai_demo: 58, guided_tour: 27, voice_demo: 15 }),
  session_statuses: weighted({ completed: 82, abandoned: 13, timed_out: 4, error: 1 }),
  sentiments_warm: weighted({ positive: 65, neutral: 28, negative: 4, mixed: 3 }),
  sentiments_cool: weighted({ positive: 25, neutral: 48, negative: 20, mixed: 7 }),
  primary_intents: weighted({
    evaluate_product: 38,
    pricing: 18,
    integration_question: 12,
    competitor_comparison: 9,
    security_review: 6,
    support_question: 7,
    just_browsing: 10,
  }),
  utm_sources: weighted({
    google: 24,
    linkedin: 20,
    NULL: 22,
    newsletter: 8,
    partner: 5,
    g2: 5,
    bing: 3,
    facebook: 3,
    twitter: 2,
    capterra: 2,
    youtube: 2,
    webinar: 4,
  }),
  utm_campaigns: [
    'brand',
    'competitor-keywords',
    'q1-enterprise',
    'q2-mid-market',
    'q3-expansion',
    'retargeting',
    'webinar-followup',
    'ai-demo-launch',
    'abm-finserv',
    null,
  ],
  utm_terms: [
    'ai demo software',
    'interactive demo platform',
    'sales engagement tool',
    'demo automation',
    'product tour software',
    'conversational demo',
    null,
    null,
  ],
  utm_contents: ['carousel-a', 'video-15s', 'banner-b', 'text-ad-2', 'case-study', null, null, null, null],
  landing_paths: [
    '',
    'demo',
    'pricing',
    'product/ai-demo',
    'customers',
    'integrations/salesforce',
    'solutions/revops',
    'book-a-demo',
  ],
  devices: weighted({
    'desktop|Chrome|Windows': 30,
    'desktop|Chrome|macOS': 16,
    'desktop|Edge|Windows': 10,
    'desktop|Safari|macOS': 8,
    'desktop|Firefox|Windows': 3,
    'desktop|Firefox|Linux': 1,
    'desktop|Chrome|Linux': 1,
    'desktop|Chrome|ChromeOS': 1,
    'mobile|Safari|iOS': 13,
    'mobile|Chrome|Android': 10,
    'mobile|Chrome|iOS': 2,
    'mobile|Samsung Internet|Android': 1,
    'tablet|Safari|iPadOS': 3,
    'tablet|Chrome|Android': 1,
    '||': 2,
  }),
  features: [
    'SSO',
    'Salesforce sync',
    'HubSpot integration',
    'analytics dashboards',
    'Custom Links',
    'the AI demo agent',
    'call recording',
    'lead routing',
    'the SOC 2 report',
    'API access',
    'Slack alerts',
    'multi-language demos',
    'pricing tiers',
    'usage-based billing',
    'role-based access',
    'CRM enrichment',
  ],
  competitors: [
    'Gong',
    'Outreach',
    'Salesloft',
    'Navattic',
    'Walnut',
    'Consensus',
    'Storylane',
    'Demostack',
    'an in-house tool',
    'spreadsheets',
  ],
  qualified_rationales: [
    'Confirmed budget and a near-term timeline.',
    'Decision maker with an active evaluation and approved budget.',
    'Team of 50+ reps; replacing the current tool this quarter.',
    'Clear pain around demo no-shows; budget owner on the call.',
    'Strong fit: mid-market SaaS with an active buying committee.',
    'Champion identified; security review already scheduled.',
  ],
  unqualified_rationales: [
    'Exploring only; no budget this year.',
    'Student or researcher, not a buyer.',
    'Company too small for the product (under 5 seats).',
    'Existing customer looking for support.',
    'Competitor doing research.',
    'No timeline; revisit next year.',
    'Outside the supported regions.',
  ],
  qualified_reasons: [
    'Budget, authority and timeline confirmed.',
    'Budget confirmed; timeline next quarter.',
    'Evaluating alternatives actively.',
    'Executive sponsor engaged.',
  ],
  unqualified_reasons: [
    'No budget this year.',
    'Not a decision maker.',
    'Outside target segment.',
    'Just browsing.',
    'Support request, not a purchase.',
  ],
  stages: ['awareness', 'consideration', 'evaluation', 'decision'],
  budgets: ['<$10k', '$10k-$25k', '$25k-$100k', '$100k-$250k', '$250k+'],
  timelines: ['this month', 'this quarter', 'next quarter', 'this year', 'next year', 'unknown'],
  next_steps: [
    'Send pricing',
    'Book a technical deep dive',
    'Share a case study',
    'Intro to a solutions engineer',
    'Send the security questionnaire',
    'Set up a pilot',
    'Loop in procurement',
    'Schedule a follow-up demo',
    'Share the ROI calculator',
    'Send integration docs',
  ],
  bullets: [
    'Asked about SSO and SCIM provisioning',
    'Compared with their current tooling',
    'Interested in the Salesforce sync',
    'Concerned about implementation time',
    'Wants usage-based pricing',
    'Needs the SOC 2 report before procurement',
    'Team of about 40 SDRs',
    'Evaluating three vendors',
    'Champion is the Head of RevOps',
    'A pilot could start next month',
    'Asked about API rate limits',
    'Liked the analytics dashboards',
  ],
  milestones: ['intro', 'discovery', 'demo', 'pricing', 'objection', 'next_steps', 'wrap_up'],
  interest_levels: ['high', 'medium', 'medium', 'low'],
  outcomes: ['follow_up', 'resolved', 'discussed', 'needs_info'],
  objection_types: ['price', 'timing', 'integration', 'security', 'competitor', 'authority'],
  objection_texts: [
    'Concerned about cost at their seat count',
    'Not a priority until next quarter',
    'Unsure the CRM sync covers custom objects',
    'Needs data residency in the EU',
    'Already using a competitor under contract',
    'Needs sign-off from the CRO',
  ],
  resolutions: [
    'Shared the ROI calculator',
    'Offered a phased rollout',
    'Sent integration docs',
    'Confirmed EU hosting',
    'Shared a migration plan',
    'Scheduled a call with the CRO',
    null,
  ],
  severities: ['low', 'medium', 'medium', 'high'],
  agent_lines: [
    'Hi {first}, thanks for joining! What brings you here today?',
    'Got it. How does your team handle {feature} today?',
    'Let me show you how {feature} works in practice.',
    'Many teams like {company} use this to cut demo prep time in half.',
    'How many people on your team would use this day to day?',
    'Compared with {competitor}, the main difference is the live AI agent.',
    'Would it help to see the analytics view next?',
    'Pricing depends on seats; most teams your size start on the Growth plan.',
    'Security-wise we are SOC 2 Type II certified and support SSO.',
    'Does that answer your question about {feature}?',
    'I can set up a pilot for {company} if that helps.',
    'Want me to book time with a solutions engineer?',
  ],
  prospect_lines: [
    'We are looking at {feature} for our team.',
    'Mostly spreadsheets and a bit of {competitor}, honestly.',
    'That looks cleaner than what we have.',
    'How long does the setup usually take?',
    'We have about forty reps across two regions.',
    'Can it sync back to Salesforce automatically?',
    'What does pricing look like for a team our size?',
    'Our security team will ask about SSO.',
    'Interesting. Can you show me the reporting side?',
    'We are evaluating a couple of vendors this quarter.',
    'That would be great, thanks.',
    'Let me loop in my manager on this.',
  ],
  campaign_names: [
    'Q1 Enterprise outbound',
    'SaaStr follow-up',
    'Mid-market ABM: FinServ',
    'Product launch: AI Demo 2.0',
    'Dormant pipeline revival',
    'Webinar attendees: RevOps',
    'Expansion: existing customers',
    'EMEA outbound',
    'Healthcare vertical',
    'Q2 Enterprise outbound',
    'Partner referrals',
    'G2 intent accounts',
    'Trade show: Dreamforce',
    'Closed-lost re-engagement',
    'APAC pilot',
    'Startup program',
    'Q3 Enterprise outbound',
    'Manufacturing vertical',
    'Competitive displacement',
    'Q4 pipeline push',
  ],
  link_contexts: [
    'Met at {event}; asked about {feature}.',
    'Downloaded the {feature} guide last week.',
    'Referred by a partner; evaluating {competitor}.',
    'Visited the pricing page three times this month.',
    'Attended the {event} webinar.',
    'Former customer at a previous company.',
  ],
  events: ['SaaStr Annual', 'Dreamforce', 'the RevOps Summit', 'Pavilion CRO Summit', 'Web Summit', 'INBOUND'],
};

module.exports = {
  weighted,
  VOCAB,
  COMPANY_PREFIXES,
  COMPANY_CORES,
  COMPANY_KINDS,
  LEGAL_SUFFIXES,
  TLDS,
  TLD_COUNTRY,
  SUBDOMAINS,
  PLACES,
  COUNTRY_WEIGHTS,
};
