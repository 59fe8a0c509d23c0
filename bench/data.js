#!/usr/bin/env node
// Benchmark dataset generator: builds (or reuses) a realistic PostgreSQL database for the bench
// runners, through the service's own schema (its migrations) and CLI (organizations, API key), with
// set-based SQL for the bulk, and derived rows (people, accounts, link rollups, distinct values,
// session references) consistent with the service's rules. It verifies a sample against the
// service's compiled rule code and writes a manifest (bench/.dataset.json) for the runners.
//
// Usage:
//   npm run bench:data                      (= npm run build && node bench/data.js)
//   node bench/data.js [flags]              (after npm run build)
// Flags (defaults in brackets):
//   --sessions N [1000000]      visible sessions of the main organization (plus ~2 % staging/pending)
//   --people N [300000]         distinct people (email keys) among them
//   --accounts N [50000]        business domains (companies) the people work at
//   --links N [200000]          Custom Links of the main organization
//   --campaigns N [20]          campaigns; one holds --large-campaign links, the others share the rest
//   --large-campaign N [50000]
//   --events N [5000000]        link events of the main organization
//   --transcripts F [0.01]      share of visible sessions with a transcript
//   --small-orgs N [9]          small neighbouring organizations ...
//   --small-sessions N [2000]   ... with this many sessions each (and a few links and events)
//   --database NAME [engagement_bench]
//   --rebuild                   rebuild even when the database already matches the flags
//   --manifest PATH             [bench/.dataset.json, or bench/.dataset.<database>.json]
// Environment: BENCH_ADMIN_DATABASE_URL [postgres://postgres@127.0.0.1:5432/postgres].
// Smoke size: --sessions 2000 --people 600 --accounts 100 --links 400 --campaigns 3 --large-campaign 200
//   --events 5000 --small-orgs 2 --small-sessions 50 --database engagement_bench_smoke
// Without --rebuild, a database whose stored manifest (COMMENT ON DATABASE) has the same flags is
// reused: pending migrations are run and the manifest file is rewritten. Otherwise the database is
// dropped (WITH FORCE) and rebuilt: ~5 minutes at the default size on 2 cores, a few seconds at the
// smoke size (mostly the CLI and migrations).
// Phase timings go to stderr (BENCH_DATA_TRACE=1 also logs every statement over a second); exit 1
// when verification finds any mismatch with the service's rules (the manifest is then not written).
'use strict';
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { parseArgs } = require('node:util');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist', 'src');
const GENERATOR_VERSION = 1;
const MAIN_SCOPES = 'sessions:read,sessions:write,people:read,accounts:read,analytics:read,transcripts:read,custom_links:write,events:write,playbook:read';
const SESSION_CHUNK = 100_000;
const EVENT_CHUNK = 500_000;

// ---------------------------------------------------------------------------------------------
// Flags
// ---------------------------------------------------------------------------------------------

const DEFAULTS = {
  sessions: 1_000_000, people: 300_000, accounts: 50_000, links: 200_000, campaigns: 20, largeCampaign: 50_000,
  events: 5_000_000, transcripts: 0.01, smallOrgs: 9, smallSessions: 2000, database: 'engagement_bench',
};

function parseFlags(argv) {
  const options = { rebuild: { type: 'boolean' }, manifest: { type: 'string' } };
  for (const name of Object.keys(DEFAULTS)) options[name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  const flags = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS)) {
    const raw = values[name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
    if (raw === undefined) continue;
    if (name === 'database') flags.database = raw;
    else flags[name] = Number(raw);
  }
  for (const [name, value] of Object.entries(flags)) {
    if (name === 'database') continue;
    const ok = name === 'transcripts' ? value >= 0 && value <= 1 : Number.isInteger(value) && value >= 0;
    if (!ok) throw new Error(`--${name}: invalid value ${value}`);
  }
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(flags.database)) throw new Error('--database must be a lower-case identifier');
  if (flags.sessions < 1 || flags.people < 1 || flags.accounts < 1 || flags.campaigns < 1) throw new Error('--sessions, --people, --accounts and --campaigns must be at least 1');
  const manifest = values.manifest ?? path.join(ROOT, 'bench', flags.database === DEFAULTS.database ? '.dataset.json' : `.dataset.${flags.database}.json`);
  return { flags, rebuild: values.rebuild === true, manifest };
}

// ---------------------------------------------------------------------------------------------
// Logging and phase timing (stderr)
// ---------------------------------------------------------------------------------------------

const started = Date.now();
const timings = [];
const log = (...args) => console.error(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s]`, ...args);

async function phase(name, fn) {
  const t0 = Date.now();
  log(`▶ ${name}`);
  const result = await fn();
  const seconds = (Date.now() - t0) / 1000;
  timings.push({ phase: name, seconds });
  log(`✔ ${name} (${seconds.toFixed(1)} s)`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// SQL parameters: named word lists become array parameters (constants, so picks stay cheap)
// ---------------------------------------------------------------------------------------------

/** Collects the parameters of one statement; `v` adds a value, `pick` a random (weighted) choice from a list. */
class Params {
  constructor() {
    this.values = [];
    this.lists = new Map();
  }
  v(value, type) {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
  list(name) {
    if (!this.lists.has(name)) this.lists.set(name, this.v(VOCAB[name], 'text[]'));
    return this.lists.get(name);
  }
  /** One element of list `name` chosen by `rnd` in [0, 1) (a random() column). */
  pick(name, rnd) {
    return `(${this.list(name)})[1 + floor((${rnd}) * ${VOCAB[name].length})::int]`;
  }
  /** Element `index` (1-based SQL expression) of list `name`. */
  at(name, index) {
    return `(${this.list(name)})[${index}]`;
  }
}

/** A list where each entry appears in proportion to its weight: {a: 3, b: 1} → [a, a, a, b]. */
function weighted(weights) {
  return Object.entries(weights).flatMap(([value, weight]) => Array(weight).fill(value === 'NULL' ? null : value));
}

/** SQL of a uuid v7 (millisecond time prefix, random rest) for a timestamptz expression. */
const uuid7 = (ts) =>
  `(lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || ` +
  `to_hex(8 + floor(random() * 4)::int) || substr(md5(random()::text), 1, 15))::uuid`;

/** Millisecond precision, as every timestamp the service writes (JavaScript Dates). */
const ms = (ts) => `date_trunc('milliseconds', ${ts})`;

/** A normal-ish variate (sum of four uniforms, mean 0, sd 1) from four random() columns. */
const normal = (a, b, c, d) => `((${a} + ${b} + ${c} + ${d} - 2) * 1.732)`;

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

const FIRST_NAMES = `James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph
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

const LAST_NAMES = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
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
Virtanen O'Brien O'Connor De_Vries Jansen Okafor Mensah Haddad Cohen Levi Da_Silva Costa Pereira Oliveira`.split(/\s+/).map((n) => n.replace('_', ' '));

/** An email-safe form of a name: accents dropped, letters only, lower case ("O'Brien" → "obrien"). */
const emailSafe = (name) => name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ø/g, 'o').replace(/Ø/g, 'O').replace(/[^A-Za-z]/g, '').toLowerCase();

const COMPANY_PREFIXES = `Blue North Bright Apex Cedar Quantum Silver Summit Iron Red Green Clear Swift True Prime Nova Atlas Vector Delta
Orbit Pioneer Golden Harbor Maple Oak Pine River Stone Sky Sun Star Wave Peak Bold Open Smart Rapid Silent Crystal Fusion Hyper
Meta Omni Pixel Cloud Data Signal Bridge Core Edge Echo Flux Grid Helix Ion Jet Kite Lumen Mosaic Nimbus Onyx Polar Quartz Radiant
Sage Terra Ultra Vivid Zen Amber Arc Aurora Beacon Birch Cobalt Coral Crest Dawn Ember Falcon Fjord Forge Glacier Granite Hawk
Horizon Indigo Juniper Keystone Lark Lotus Mesa Meridian Nexus Oasis Opal Orchid Paragon Prairie Quill Raven Redwood Ridge Sable
Sequoia Sierra Solstice Spruce Tidal Torch Trident Union Valley Willow Zephyr Copper Lunar Crimson`.split(/\s+/);
const COMPANY_CORES = `wave stone field path logic forge bridge point works labs soft ware scale stack flow mind sight shift line link base
cast gate hub loop mark net port quest rise scope sense sphere spring stream tech trail vault view wise bit byte cloud craft dash
deck desk dock drive grid leaf lift light map mesh mint nest note pad peak pilot pulse rail ray reach root route run sail seed ship
spark spot sync tide track verse wing yard ly io ify able hq ops metrics ledger haven vista bloom wood well ton ford dale brook gen
matic lytics`.split(/\s+/);
const COMPANY_KINDS = ['', '', '', 'Labs', 'Technologies', 'Software', 'Systems', 'Analytics', 'Health', 'Group', 'AI', 'Cloud', 'Logistics',
  'Robotics', 'Capital', 'Partners', 'Security', 'Energy', 'Media', 'Bio', 'Networks', 'Financial', 'Insurance', 'Retail', 'Foods',
  'Manufacturing', 'Consulting', 'Learning', 'Mobility', 'Payments', 'Data'];
const LEGAL_SUFFIXES = ['Inc.', 'Ltd', 'LLC', 'GmbH', 'Corp.', 'S.A.', 'B.V.'];
const TLDS = weighted({ com: 60, io: 9, co: 4, ai: 4, 'co.uk': 6, de: 4, fr: 2, 'com.au': 2, nl: 2, ca: 2, net: 2, 'com.br': 1, es: 1, se: 1 });
const TLD_COUNTRY = { 'co.uk': 'GB', de: 'DE', fr: 'FR', 'com.au': 'AU', nl: 'NL', ca: 'CA', 'com.br': 'BR', es: 'ES', se: 'SE' };
const SUBDOMAINS = ['eu', 'us', 'uk', 'emea', 'corp', 'mail', 'apac', 'na', 'global'];

/** country|region|city|UTC offset (hours)|calling code; empty region or city: unknown. */
const PLACES = `US|California|San_Francisco|-8|1 US|California|Los_Angeles|-8|1 US|New_York|New_York|-5|1 US|Texas|Austin|-6|1
US|Texas|Dallas|-6|1 US|Washington|Seattle|-8|1 US|Massachusetts|Boston|-5|1 US|Illinois|Chicago|-6|1 US|Colorado|Denver|-7|1
US|Georgia|Atlanta|-5|1 US|Florida|Miami|-5|1 US|North_Carolina|Raleigh|-5|1 US|Utah|Salt_Lake_City|-7|1 US|||-6|1
GB|England|London|0|44 GB|England|Manchester|0|44 GB|Scotland|Edinburgh|0|44 GB|England|Bristol|0|44 DE|Berlin|Berlin|1|49
DE|Bavaria|Munich|1|49 DE|Hamburg|Hamburg|1|49 DE|Hesse|Frankfurt|1|49 FR|Île-de-France|Paris|1|33 FR|Auvergne-Rhône-Alpes|Lyon|1|33
FR|||1|33 CA|Ontario|Toronto|-5|1 CA|British_Columbia|Vancouver|-8|1 CA|Quebec|Montreal|-5|1 AU|New_South_Wales|Sydney|10|61
AU|Victoria|Melbourne|10|61 IN|Karnataka|Bengaluru|5|91 IN|Maharashtra|Mumbai|5|91 IN|Delhi|New_Delhi|5|91
NL|North_Holland|Amsterdam|1|31 NL|South_Holland|Rotterdam|1|31 BR|São_Paulo|São_Paulo|-3|55 ES|Madrid|Madrid|1|34
ES|Catalonia|Barcelona|1|34 SE|Stockholm|Stockholm|1|46 SG||Singapore|8|65 IE|Leinster|Dublin|0|353 JP|Tokyo|Tokyo|9|81
IT|Lombardy|Milan|1|39 CH|Zurich|Zurich|1|41 PL|Masovia|Warsaw|1|48 MX|CDMX|Mexico_City|-6|52 ZA|Western_Cape|Cape_Town|2|27
IL|Tel_Aviv|Tel_Aviv|2|972`.split(/\s+/).map((p) => p.replace(/_/g, ' '));
const COUNTRY_WEIGHTS = { US: 42, GB: 11, DE: 7, CA: 6, FR: 5, AU: 4, IN: 5, NL: 3, BR: 2, ES: 2, SE: 2, SG: 2, IE: 2, JP: 1, IT: 1, CH: 1, PL: 1, MX: 1, ZA: 1, IL: 1 };

const VOCAB = {
  first_names: FIRST_NAMES,
  first_keys: FIRST_NAMES.map(emailSafe),
  last_names: LAST_NAMES,
  last_keys: LAST_NAMES.map(emailSafe),
  places: PLACES,
  /** Place indexes weighted by country (for prospects at free mail or abroad). */
  weighted_places: Object.entries(COUNTRY_WEIGHTS).flatMap(([country, weight]) => {
    const indexes = PLACES.map((p, i) => [p, String(i + 1)]).filter(([p]) => p.startsWith(`${country}|`)).map(([, i]) => i);
    return Array.from({ length: weight * 4 }, (_, k) => indexes[k % indexes.length]);
  }),
  free_hosts: weighted({ 'gmail.com': 55, 'outlook.com': 12, 'yahoo.com': 10, 'hotmail.com': 8, 'icloud.com': 5, 'proton.me': 2, 'aol.com': 2, 'gmx.de': 2, 'web.de': 1, 'yahoo.co.uk': 1, 'live.com': 2 }),
  roles: ['VP Sales', 'Head of Sales', 'Sales Director', 'Account Executive', 'SDR Manager', 'Head of RevOps', 'RevOps Manager', 'VP Marketing',
    'Head of Growth', 'Demand Gen Manager', 'Product Marketing Manager', 'CMO', 'CRO', 'CEO', 'Founder', 'COO', 'CTO', 'VP Engineering',
    'Head of Customer Success', 'Sales Enablement Lead', 'Marketing Operations Manager', 'Chief of Staff', 'Procurement Manager', 'IT Director'],
  decision_roles: ['VP Sales', 'CRO', 'CEO', 'Head of RevOps', 'CMO', 'CTO', 'Director of Sales', 'Founder', null, null],
  intents: weighted({ high: 12, medium: 26, low: 34, none: 20, NULL: 8 }),
  session_types: weighted({ ai_demo: 58, guided_tour: 27, voice_demo: 15 }),
  session_statuses: weighted({ completed: 82, abandoned: 13, timed_out: 4, error: 1 }),
  sentiments_warm: weighted({ positive: 65, neutral: 28, negative: 4, mixed: 3 }),
  sentiments_cool: weighted({ positive: 25, neutral: 48, negative: 20, mixed: 7 }),
  primary_intents: weighted({ evaluate_product: 38, pricing: 18, integration_question: 12, competitor_comparison: 9, security_review: 6, support_question: 7, just_browsing: 10 }),
  utm_sources: weighted({ google: 24, linkedin: 20, NULL: 22, newsletter: 8, partner: 5, g2: 5, bing: 3, facebook: 3, twitter: 2, capterra: 2, youtube: 2, webinar: 4 }),
  utm_campaigns: ['brand', 'competitor-keywords', 'q1-enterprise', 'q2-mid-market', 'q3-expansion', 'retargeting', 'webinar-followup', 'ai-demo-launch', 'abm-finserv', null],
  utm_terms: ['ai demo software', 'interactive demo platform', 'sales engagement tool', 'demo automation', 'product tour software', 'conversational demo', null, null],
  utm_contents: ['carousel-a', 'video-15s', 'banner-b', 'text-ad-2', 'case-study', null, null, null, null],
  landing_paths: ['', 'demo', 'pricing', 'product/ai-demo', 'customers', 'integrations/salesforce', 'solutions/revops', 'book-a-demo'],
  devices: weighted({ 'desktop|Chrome|Windows': 30, 'desktop|Chrome|macOS': 16, 'desktop|Edge|Windows': 10, 'desktop|Safari|macOS': 8, 'desktop|Firefox|Windows': 3,
    'desktop|Firefox|Linux': 1, 'desktop|Chrome|Linux': 1, 'desktop|Chrome|ChromeOS': 1, 'mobile|Safari|iOS': 13, 'mobile|Chrome|Android': 10, 'mobile|Chrome|iOS': 2,
    'mobile|Samsung Internet|Android': 1, 'tablet|Safari|iPadOS': 3, 'tablet|Chrome|Android': 1, '||': 2 }),
  features: ['SSO', 'Salesforce sync', 'HubSpot integration', 'analytics dashboards', 'Custom Links', 'the AI demo agent', 'call recording', 'lead routing',
    'the SOC 2 report', 'API access', 'Slack alerts', 'multi-language demos', 'pricing tiers', 'usage-based billing', 'role-based access', 'CRM enrichment'],
  competitors: ['Gong', 'Outreach', 'Salesloft', 'Navattic', 'Walnut', 'Consensus', 'Storylane', 'Demostack', 'an in-house tool', 'spreadsheets'],
  qualified_rationales: ['Confirmed budget and a near-term timeline.', 'Decision maker with an active evaluation and approved budget.',
    'Team of 50+ reps; replacing the current tool this quarter.', 'Clear pain around demo no-shows; budget owner on the call.',
    'Strong fit: mid-market SaaS with an active buying committee.', 'Champion identified; security review already scheduled.'],
  unqualified_rationales: ['Exploring only; no budget this year.', 'Student or researcher, not a buyer.', 'Company too small for the product (under 5 seats).',
    'Existing customer looking for support.', 'Competitor doing research.', 'No timeline; revisit next year.', 'Outside the supported regions.'],
  qualified_reasons: ['Budget, authority and timeline confirmed.', 'Budget confirmed; timeline next quarter.', 'Evaluating alternatives actively.', 'Executive sponsor engaged.'],
  unqualified_reasons: ['No budget this year.', 'Not a decision maker.', 'Outside target segment.', 'Just browsing.', 'Support request, not a purchase.'],
  stages: ['awareness', 'consideration', 'evaluation', 'decision'],
  budgets: ['<$10k', '$10k-$25k', '$25k-$100k', '$100k-$250k', '$250k+'],
  timelines: ['this month', 'this quarter', 'next quarter', 'this year', 'next year', 'unknown'],
  next_steps: ['Send pricing', 'Book a technical deep dive', 'Share a case study', 'Intro to a solutions engineer', 'Send the security questionnaire',
    'Set up a pilot', 'Loop in procurement', 'Schedule a follow-up demo', 'Share the ROI calculator', 'Send integration docs'],
  bullets: ['Asked about SSO and SCIM provisioning', 'Compared with their current tooling', 'Interested in the Salesforce sync', 'Concerned about implementation time',
    'Wants usage-based pricing', 'Needs the SOC 2 report before procurement', 'Team of about 40 SDRs', 'Evaluating three vendors',
    'Champion is the Head of RevOps', 'A pilot could start next month', 'Asked about API rate limits', 'Liked the analytics dashboards'],
  milestones: ['intro', 'discovery', 'demo', 'pricing', 'objection', 'next_steps', 'wrap_up'],
  interest_levels: ['high', 'medium', 'medium', 'low'],
  outcomes: ['follow_up', 'resolved', 'discussed', 'needs_info'],
  objection_types: ['price', 'timing', 'integration', 'security', 'competitor', 'authority'],
  objection_texts: ['Concerned about cost at their seat count', 'Not a priority until next quarter', 'Unsure the CRM sync covers custom objects',
    'Needs data residency in the EU', 'Already using a competitor under contract', 'Needs sign-off from the CRO'],
  resolutions: ['Shared the ROI calculator', 'Offered a phased rollout', 'Sent integration docs', 'Confirmed EU hosting', 'Shared a migration plan', 'Scheduled a call with the CRO', null],
  severities: ['low', 'medium', 'medium', 'high'],
  agent_lines: ['Hi {first}, thanks for joining! What brings you here today?', 'Got it. How does your team handle {feature} today?',
    'Let me show you how {feature} works in practice.', 'Many teams like {company} use this to cut demo prep time in half.',
    'How many people on your team would use this day to day?', 'Compared with {competitor}, the main difference is the live AI agent.',
    'Would it help to see the analytics view next?', 'Pricing depends on seats; most teams your size start on the Growth plan.',
    'Security-wise we are SOC 2 Type II certified and support SSO.', 'Does that answer your question about {feature}?',
    'I can set up a pilot for {company} if that helps.', 'Want me to book time with a solutions engineer?'],
  prospect_lines: ['We are looking at {feature} for our team.', 'Mostly spreadsheets and a bit of {competitor}, honestly.',
    'That looks cleaner than what we have.', 'How long does the setup usually take?', 'We have about forty reps across two regions.',
    'Can it sync back to Salesforce automatically?', 'What does pricing look like for a team our size?', 'Our security team will ask about SSO.',
    'Interesting. Can you show me the reporting side?', 'We are evaluating a couple of vendors this quarter.', 'That would be great, thanks.',
    'Let me loop in my manager on this.'],
  campaign_names: ['Q1 Enterprise outbound', 'SaaStr follow-up', 'Mid-market ABM: FinServ', 'Product launch: AI Demo 2.0', 'Dormant pipeline revival',
    'Webinar attendees: RevOps', 'Expansion: existing customers', 'EMEA outbound', 'Healthcare vertical', 'Q2 Enterprise outbound', 'Partner referrals',
    'G2 intent accounts', 'Trade show: Dreamforce', 'Closed-lost re-engagement', 'APAC pilot', 'Startup program', 'Q3 Enterprise outbound',
    'Manufacturing vertical', 'Competitive displacement', 'Q4 pipeline push'],
  link_contexts: ['Met at {event}; asked about {feature}.', 'Downloaded the {feature} guide last week.', 'Referred by a partner; evaluating {competitor}.',
    'Visited the pricing page three times this month.', 'Attended the {event} webinar.', 'Former customer at a previous company.'],
  events: ['SaaStr Annual', 'Dreamforce', 'the RevOps Summit', 'Pavilion CRO Summit', 'Web Summit', 'INBOUND'],
};

// ---------------------------------------------------------------------------------------------
// Database lifecycle: existence, stored manifest (a comment on the database), creation, migrations, CLI
// ---------------------------------------------------------------------------------------------

const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseUrl = (name) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const execFileAsync = promisify(execFile);

async function withClient(url, fn) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The manifest stored with the database (COMMENT ON DATABASE), or null. */
async function storedManifest(admin, database) {
  const { rows } = await admin.query(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [database]);
  if (rows.length === 0) return null;
  try {
    const manifest = JSON.parse(rows[0].comment ?? 'null');
    return manifest && manifest.generatorVersion === GENERATOR_VERSION ? manifest : null;
  } catch {
    return null;
  }
}

async function recreateDatabase(admin, database) {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
}

async function runMigrations(url) {
  await execFileAsync(process.execPath, ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url } });
}

/** The project CLI (dist/src/cli.js); each command prints one JSON object. */
async function cli(url, ...args) {
  const { stdout } = await execFileAsync(process.execPath, ['dist/src/cli.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error' } });
  return JSON.parse(stdout);
}

// ---------------------------------------------------------------------------------------------
// What each organization gets
// ---------------------------------------------------------------------------------------------

/** Sizes per organization: the main one from the flags, the small ones scaled from --small-sessions. */
function organizationSpecs(flags, mainId, smallIds) {
  const main = {
    id: mainId, label: 'main', sessions: flags.sessions, extraSessions: Math.round(flags.sessions * 0.02),
    people: Math.min(flags.people, Math.floor(flags.sessions * 0.92)), companies: flags.accounts, companyOffset: 0,
    links: flags.links, campaigns: flags.campaigns, largeCampaign: Math.min(flags.largeCampaign, flags.links), events: flags.events,
    transcripts: Math.round(flags.sessions * flags.transcripts),
  };
  const small = smallIds.map((id, k) => {
    const sessions = flags.smallSessions;
    const people = Math.max(1, Math.min(Math.round(sessions * 0.35), Math.floor(sessions * 0.92)));
    const links = Math.max(5, Math.round(sessions / 20));
    return {
      id, label: `small ${k + 1}`, sessions, extraSessions: Math.round(sessions * 0.02), people, companies: Math.max(1, Math.round(people / 5)),
      companyOffset: ((k + 1) * 7919) % Math.max(1, flags.accounts), links, campaigns: 2, largeCampaign: Math.ceil(links / 2), events: links * 25,
      transcripts: Math.round(sessions * flags.transcripts),
    };
  });
  return withSessions([main, ...small]);
}

const withSessions = (specs) => specs.filter((spec) => spec.sessions > 0);

/** Link-only prospects (links for people who never had a session): about 30 % of the links. */
const linkOnlyProspects = (spec) => Math.ceil(spec.links * 0.32) + 1;

// ---------------------------------------------------------------------------------------------
// Generation: work tables (schema bench_gen, unlogged, dropped at the end)
// ---------------------------------------------------------------------------------------------

async function createWorkTables(db) {
  await db.query(`DROP SCHEMA IF EXISTS bench_gen CASCADE`);
  await db.query(`CREATE SCHEMA bench_gen`);
  // Companies (shared pool) and the account domain of every email host (accountDomainOf, computed in Node).
  await db.query(`CREATE UNLOGGED TABLE bench_gen.companies (idx int PRIMARY KEY, name text, short_name text, legal_name text, domain text, sub_host text, place_lo int, place_n int)`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.hosts (host text PRIMARY KEY, account_domain text)`);
  // Prospects: future people (n <= people) and link-only prospects.
  await db.query(`CREATE UNLOGGED TABLE bench_gen.prospects (org uuid, n int, first text, last text, email text, company_idx int, free boolean,
    business text, business_short text, business_legal text, place_i int, phone text, role text, PRIMARY KEY (org, n))`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.links_plan (org uuid, k int, id uuid, slug text, prospect_n int, campaign_id uuid, job_no int, job_rank int,
    created_at timestamptz, activity text, activity_rank int, display_name text, active boolean, external_id text, first_name text, last_name text,
    email text, phone text, role text, company text, context text, share_title text, share_description text, share_thumbnail_url text,
    prospect_logo_url text, prospect_domain text, explicit_display_name boolean)`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.jobs (org uuid, campaign_id uuid, job_no int, id uuid, total int, first_at timestamptz, last_at timestamptz)`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.prospect_links (org uuid, prospect_n int, link_id uuid, campaign_id uuid, slug text, created_at timestamptz,
    responder boolean, PRIMARY KEY (org, prospect_n))`);
  // Sessions before they go to the real table (people and their ids are derived first).
  await db.query(`CREATE UNLOGGED TABLE bench_gen.sessions_stage (LIKE sessions INCLUDING DEFAULTS)`);
  await db.query(`CREATE TYPE bench_gen.qualification AS (status text, rationale text, source text, assessed_at timestamptz, rubric_version_id text)`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.people_stage (LIKE people INCLUDING DEFAULTS)`);
  await db.query(`ALTER TABLE bench_gen.people_stage ALTER COLUMN id DROP NOT NULL, ALTER COLUMN intent_score DROP NOT NULL,
    ALTER COLUMN overall_intent DROP NOT NULL, ALTER COLUMN intent_calculated_at DROP NOT NULL`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.intent (organization_id uuid, email_key text, score double precision, overall text)`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.visits_raw (org uuid, v int, link_id uuid, at timestamptz, bot boolean, visitor_id text, session_id uuid,
    types text[], last_pv int, start_off int, engaged_off int, lead_off int, mclick_off int, mbook_off int, end_off int)`);
}

/** `count` companies with unique registrable domains (accountDomainOf(domain) === domain), a subdomain host and a home country. */
function makeCompanies(count, accountDomainOf) {
  // Seeded, so the company list is the same on every build.
  const { seededRandom } = require(path.join(DIST, 'common/seeded-random'));
  const random = seededRandom(20261122);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const countryWeights = weighted(COUNTRY_WEIGHTS);
  const placeRange = (country) => {
    const lo = PLACES.findIndex((p) => p.startsWith(`${country}|`));
    return [lo + 1, PLACES.filter((p) => p.startsWith(`${country}|`)).length];
  };
  const domains = new Set();
  const companies = [];
  for (let attempts = 0; companies.length < count; attempts += 1) {
    if (attempts > count * 50 + 1000) throw new Error(`could not generate ${count} distinct company domains`);
    const prefix = pick(COMPANY_PREFIXES);
    const core = pick(COMPANY_CORES);
    const kind = pick(COMPANY_KINDS);
    const short = prefix + core;
    const name = kind ? `${short} ${kind}` : short;
    const tld = pick(TLDS);
    const label = random() < 0.06 ? `${prefix.toLowerCase()}-${core}` : `${short.toLowerCase()}${kind && random() < 0.35 ? kind.toLowerCase() : ''}`;
    const domain = `${label}.${tld}`;
    if (domains.has(domain) || accountDomainOf(`x@${domain}`) !== domain) continue;
    domains.add(domain);
    const country = TLD_COUNTRY[tld] ?? (random() < 0.7 ? 'US' : pick(countryWeights));
    const [placeLo, placeN] = placeRange(country);
    companies.push({ idx: companies.length + 1, name, short, legal: `${name} ${pick(LEGAL_SUFFIXES)}`, domain, subHost: `${pick(SUBDOMAINS)}.${domain}`, placeLo, placeN });
  }
  return companies;
}

async function loadCompanies(db, count) {
  const { accountDomainOf } = require(path.join(DIST, 'modules/accounts/rules/account-domain'));
  const companies = makeCompanies(count, accountDomainOf);
  const column = (field) => companies.map((c) => c[field]);
  // The company pool.
  await db.query(
    `INSERT INTO bench_gen.companies SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[])`,
    [column('idx'), column('name'), column('short'), column('legal'), column('domain'), column('subHost'), column('placeLo'), column('placeN')],
  );
  // Every email host with its account domain as the service computes it (none for free mail).
  const hosts = [...new Set([...companies.flatMap((c) => [c.domain, c.subHost]), ...VOCAB.free_hosts])];
  await db.query(`INSERT INTO bench_gen.hosts SELECT * FROM unnest($1::text[], $2::text[])`, [hosts, hosts.map((host) => accountDomainOf(`x@${host}`))]);
  return companies.length;
}

/** Prospects of one organization: each of the first `companies` at its own company, the rest skewed; ~10 % on free mail. */
async function generateProspects(db, spec, pool) {
  const total = spec.people + linkOnlyProspects(spec);
  const freeShare = Math.min(1, Math.max(0, (0.1 * total) / Math.max(1, total - spec.companies)));
  const p = new Params();
  const org = p.v(spec.id, 'uuid');
  // Prospects with an email local part from common patterns, deduplicated per host with a number (jane.doe2@…).
  await db.query(
    `INSERT INTO bench_gen.prospects (org, n, first, last, email, company_idx, free, business, business_short, business_legal, place_i, phone, role)
     WITH x AS MATERIALIZED (SELECT n, random() AS r_first, random() AS r_last, random() AS r_co, random() AS r_free, random() AS r_pat, random() AS r_num,
                            random() AS r_host, random() AS r_place, random() AS r_abroad, random() AS r_phone, random() AS r_role
                       FROM generate_series(1, ${p.v(total, 'int')}) AS n)
     SELECT org, n, first, last, local || CASE WHEN dup > 1 THEN dup::text ELSE '' END || '@' || host, company_idx, free,
            business, business_short, business_legal, place_i, phone, role
       FROM (
         SELECT c.*, row_number() OVER (PARTITION BY local, host ORDER BY n) AS dup
           FROM (
             SELECT ${org} AS org, x.n, ${p.at('first_names', 'i.fi')} AS first, ${p.at('last_names', 'i.li')} AS last, i.free, co.idx AS company_idx,
                    CASE WHEN i.free THEN
                           CASE WHEN x.r_pat < 0.30 THEN k.fk || '.' || k.lk || (10 + floor(x.r_num * 90))::int
                                WHEN x.r_pat < 0.55 THEN k.fk || k.lk || lpad(((65 + floor(x.r_num * 40))::int % 100)::text, 2, '0')
                                WHEN x.r_pat < 0.65 THEN k.fk || '_' || k.lk
                                WHEN x.r_pat < 0.80 THEN left(k.fk, 1) || k.lk || (100 + floor(x.r_num * 900))::int
                                ELSE k.fk || '.' || k.lk END
                         ELSE
                           CASE WHEN x.r_pat < 0.55 THEN k.fk || '.' || k.lk
                                WHEN x.r_pat < 0.69 THEN left(k.fk, 1) || k.lk
                                WHEN x.r_pat < 0.74 THEN k.fk
                                WHEN x.r_pat < 0.78 THEN k.fk || left(k.lk, 1)
                                WHEN x.r_pat < 0.82 THEN k.fk || '_' || k.lk
                                WHEN x.r_pat < 0.90 THEN left(k.fk, 1) || '.' || k.lk
                                WHEN x.r_pat < 0.93 THEN k.lk || '.' || k.fk
                                ELSE k.fk || k.lk END
                    END AS local,
                    CASE WHEN i.free THEN ${p.pick('free_hosts', 'x.r_host')} WHEN x.r_host < 0.04 THEN co.sub_host ELSE co.domain END AS host,
                    co.name AS business, co.short_name AS business_short, co.legal_name AS business_legal, i.place_i,
                    CASE WHEN x.r_phone < 0.5 THEN '+' || split_part(${p.at('places', 'i.place_i')}, '|', 5) || ' ' || (200 + floor(x.r_num * 700))::int
                         || ' ' || lpad(floor(x.r_phone * 2000)::int::text, 3, '0') || ' ' || lpad(floor(x.r_first * 10000)::int::text, 4, '0') END AS phone,
                    ${p.pick('roles', 'x.r_role')} AS role
               FROM x
              CROSS JOIN LATERAL (SELECT 1 + floor(x.r_first * ${VOCAB.first_names.length})::int AS fi, 1 + floor(x.r_last * ${VOCAB.last_names.length})::int AS li,
                                         x.n > ${p.v(spec.companies, 'int')} AND x.r_free < ${p.v(freeShare, 'float8')} AS free,
                                         1 + ((${p.v(spec.companyOffset, 'int')} + CASE WHEN x.n <= ${p.v(spec.companies, 'int')} THEN x.n - 1
                                                ELSE floor(${p.v(spec.companies, 'int')} * power(x.r_co, 1.6))::int END) % ${p.v(pool, 'int')}) AS company_idx OFFSET 0) i0
               JOIN bench_gen.companies co ON co.idx = i0.company_idx
              CROSS JOIN LATERAL (SELECT i0.*, CASE WHEN i0.free OR x.r_abroad < 0.15 THEN ${p.pick('weighted_places', 'x.r_place')}::int
                                                    ELSE co.place_lo + floor(x.r_place * co.place_n)::int END AS place_i OFFSET 0) i
              CROSS JOIN LATERAL (SELECT ${p.at('first_keys', 'i.fi')} AS fk, ${p.at('last_keys', 'i.li')} AS lk OFFSET 0) k
           ) c
       ) d`,
    p.values,
  );
}

/** Campaigns of one organization (the first is the large one), created over the past ten months. */
async function generateCampaigns(db, spec, now) {
  const p = new Params();
  const names = VOCAB.campaign_names.length;
  // Campaign rows with uuid v7 ids; names repeat with a number beyond the list.
  const { rows } = await db.query(
    `INSERT INTO campaigns (organization_id, id, name, created_at, updated_at)
     SELECT ${p.v(spec.id, 'uuid')}, ${uuid7('t')}, name, t, t
       FROM (SELECT c, CASE WHEN c <= ${names} THEN ${p.at('campaign_names', 'c')}
                            ELSE ${p.at('campaign_names', `1 + (c - 1) % ${names}`)} || ' #' || ((c - 1) / ${names} + 1) END AS name,
                    ${ms(`${p.v(now, 'timestamptz')} - (300 - (c - 1) * 270.0 / ${p.v(spec.campaigns, 'int')}) * interval '1 day' + random() * interval '8 hours'`)} AS t
               FROM generate_series(1, ${p.v(spec.campaigns, 'int')}) AS c) x
     ORDER BY t RETURNING id, created_at`,
    p.values,
  );
  return rows.sort((a, b) => a.created_at - b.created_at);
}

/**
 * Links of one organization planned in bench_gen.links_plan: the large campaign's links, the other
 * campaigns sharing the rest, ~3 % unfiled; jobs of up to 500 links; personalization from prospects.
 */
async function planLinks(db, spec, campaigns, now) {
  if (spec.links === 0) return;
  const p = new Params();
  const L = p.v(spec.links, 'int');
  const unfiled = campaigns.length > 1 ? Math.round(spec.links * 0.03) : spec.links - spec.largeCampaign;
  const campaignIds = p.v(campaigns.map((c) => c.id), 'uuid[]');
  const campaignTimes = p.v(campaigns.map((c) => c.created_at.toISOString()), 'timestamptz[]');
  const nowParam = p.v(now, 'timestamptz');
  // The plan of every link: campaign, job and creation time, prospect and personalization, activity class (silent, bot-only, active).
  await db.query(
    `INSERT INTO bench_gen.links_plan (org, k, id, slug, prospect_n, campaign_id, job_no, job_rank, created_at, activity, display_name, active,
       external_id, first_name, last_name, email, phone, role, company, context, share_title, share_description, share_thumbnail_url,
       prospect_logo_url, prospect_domain, explicit_display_name)
     WITH u AS MATERIALIZED (
                     SELECT ${p.v(spec.id, 'uuid')} AS org, k, random() AS r_act, random() AS r_active, random() AS r_fn, random() AS r_ln, random() AS r_em,
                            random() AS r_ph, random() AS r_role, random() AS r_co, random() AS r_ctx, random() AS r_f, random() AS r_title, random() AS r_desc,
                            random() AS r_logo, random() AS r_dom, random() AS r_ext, random() < 0.04 AS explicit,
                            rtrim(translate(encode(decode(md5(random()::text || k::text || clock_timestamp()::text), 'hex'), 'base64'), '+/', '-_'), '=') AS slug,
                            CASE WHEN k % 10 < 7 THEN 1 + floor(random() * ${p.v(spec.people, 'int')})::int
                                 ELSE ${p.v(spec.people, 'int')} + 1 + (k - 1) % ${p.v(linkOnlyProspects(spec), 'int')} END AS prospect_n,
                            CASE WHEN k <= ${p.v(spec.largeCampaign, 'int')} THEN 1
                                 WHEN k > ${L} - ${p.v(unfiled, 'int')} THEN NULL
                                 ELSE 2 + floor((${p.v(campaigns.length, 'int')} - 1) * power(random(), 1.4))::int END AS campaign_i
                       FROM generate_series(1, ${L}) AS k)
     SELECT y.org, y.k, ${uuid7('y.created_at')}, y.slug, y.prospect_n, y.campaign_id, y.job_no, y.job_rank, y.created_at,
            CASE WHEN y.r_act < 0.38 THEN 'silent' WHEN y.r_act < 0.44 THEN 'bot' ELSE 'active' END,
            left(coalesce(CASE WHEN y.explicit THEN y.first_name || ' @ ' || coalesce(y.company, 'their team') END,
                          nullif(concat_ws(', ', nullif(concat_ws(' ', CASE WHEN btrim(y.first_name) <> '' THEN y.first_name END,
                                                                      CASE WHEN btrim(y.last_name) <> '' THEN y.last_name END), ''),
                                                  nullif(btrim(y.company), '')), ''),
                          nullif(btrim(y.email), ''), 'Custom Link'), 255),
            y.r_active < 0.95, y.external_id, y.first_name, y.last_name, y.email, y.phone, y.role, y.company, y.context, y.share_title,
            y.share_description, 'https://cdn.example.com/cards/' || y.slug || '.png', y.prospect_logo_url, y.prospect_domain, y.explicit
       FROM (
         SELECT w.*,
                ${ms(`least(CASE WHEN w.campaign_i IS NULL
                                 THEN ${nowParam} - ((hashint4(w.job_no + 17) & 1023) / 1024.0 * 300 + 1) * interval '1 day'
                                 ELSE (${campaignTimes})[w.campaign_i] + (hashint4(w.job_no * 31 + w.campaign_i) & 1023) / 1024.0
                                      * least(interval '35 days', ${nowParam} - (${campaignTimes})[w.campaign_i] - interval '4 hours') END
                            + w.job_rank * interval '120 milliseconds', ${nowParam} - interval '2 hours')`)} AS created_at
           FROM (
             SELECT v.*, (${campaignIds})[v.campaign_i] AS campaign_id,
                    ((row_number() OVER (PARTITION BY v.campaign_i ORDER BY v.k) - 1) / CASE WHEN v.campaign_i IS NULL THEN 25 ELSE 500 END)::int AS job_no,
                    ((row_number() OVER (PARTITION BY v.campaign_i ORDER BY v.k) - 1) % CASE WHEN v.campaign_i IS NULL THEN 25 ELSE 500 END)::int AS job_rank
               FROM (
                 SELECT u.*, pr.first AS pr_first, pr.last AS pr_last,
                        CASE WHEN u.r_fn < 0.97 THEN pr.first END AS first_name, CASE WHEN u.r_ln < 0.95 THEN pr.last END AS last_name,
                        CASE WHEN u.r_em >= 0.92 THEN NULL WHEN u.r_em < 0.75 THEN pr.email
                             ELSE initcap(split_part(pr.email, '@', 1)) || '@' || split_part(pr.email, '@', 2) END AS email,
                        CASE WHEN u.r_ph < 0.25 THEN pr.phone END AS phone, CASE WHEN u.r_role < 0.8 THEN pr.role END AS role,
                        CASE WHEN u.r_co < 0.9 THEN co.name END AS company,
                        CASE WHEN u.r_ctx < 0.35 THEN replace(replace(replace(${p.pick('link_contexts', 'u.r_ctx * 2.857')}, '{event}', ${p.pick('events', 'u.r_f')}),
                               '{feature}', ${p.pick('features', 'u.r_f')}), '{competitor}', ${p.pick('competitors', 'u.r_ph')}) END AS context,
                        CASE WHEN u.r_title < 0.75 THEN CASE WHEN u.r_title < 0.4 THEN 'A demo made for ' || co.name ELSE 'Hi ' || pr.first || ', see ' || ${p.pick('features', 'u.r_f')} || ' in action' END END AS share_title,
                        CASE WHEN u.r_desc < 0.5 THEN 'A two-minute interactive walkthrough of ' || ${p.pick('features', 'u.r_f')} || ' for ' || co.name || '.' END AS share_description,
                        CASE WHEN u.r_logo < 0.3 THEN 'https://logo.clearbit.com/' || co.domain END AS prospect_logo_url,
                        CASE WHEN u.r_dom < 0.8 THEN co.domain END AS prospect_domain,
                        CASE WHEN u.r_ext < 0.5 THEN '003' || upper(substr(md5(u.k::text || ${p.v(spec.id, 'text')}), 1, 15))
                             WHEN u.r_ext < 0.85 THEN 'hs-' || (10000000 + floor(u.r_ext * 89999999))::bigint END AS external_id
                   FROM u
                   JOIN bench_gen.prospects pr ON pr.org = u.org AND pr.n = u.prospect_n
                   JOIN bench_gen.companies co ON co.idx = pr.company_idx
               ) v
           ) w
       ) y`,
    p.values,
  );
  // Hot-link order among active links and bot-only links (a random permutation each).
  await db.query(
    `WITH r AS MATERIALIZED (SELECT k, row_number() OVER (PARTITION BY activity ORDER BY random()) AS rank FROM bench_gen.links_plan WHERE org = $1)
     UPDATE bench_gen.links_plan l SET activity_rank = r.rank FROM r WHERE l.org = $1 AND l.k = r.k`,
    [spec.id],
  );
}

/** A job's campaign and a link's (both may be none), as a hashable join condition. */
const SAME_CAMPAIGN = `coalesce(j.campaign_id, '00000000-0000-0000-0000-000000000000') = coalesce(l.campaign_id, '00000000-0000-0000-0000-000000000000')`;

/** Jobs, job items and links from the plan, then each prospect's first link (sessions may come through it). */
async function insertLinks(db, spec) {
  if (spec.links === 0) return;
  // Jobs: one per (campaign, batch of up to 500); unfiled links in small jobs of 25.
  await db.query(
    `INSERT INTO bench_gen.jobs (org, campaign_id, job_no, id, total, first_at, last_at)
     SELECT org, campaign_id, job_no, ${uuid7(`min(created_at) - interval '1500 milliseconds'`)}, count(*), min(created_at), max(created_at)
       FROM bench_gen.links_plan WHERE org = $1 GROUP BY org, campaign_id, job_no`,
    [spec.id],
  );
  // Completed creation jobs (CustomLinkJobsRepository.insert shape, settled).
  await db.query(
    `INSERT INTO custom_link_jobs (organization_id, id, type, status, total_items, campaign_id, campaign_name, render_units, started_at, completed_at, created_at, updated_at)
     SELECT org, id, 'create', 'completed', total, campaign_id, NULL, 0, first_at - interval '200 milliseconds', last_at + interval '40 milliseconds',
            first_at - interval '1500 milliseconds', last_at + interval '40 milliseconds'
       FROM bench_gen.jobs WHERE org = $1 ORDER BY first_at`,
    [spec.id],
  );
  // One created item per link, its input as the request sent it (absent fields left out).
  await db.query(
    `INSERT INTO custom_link_job_items (organization_id, job_id, index, status, custom_link_id, external_id, input, updated_at)
     SELECT l.org, j.id, l.job_rank, 'created', l.id, l.external_id,
            jsonb_strip_nulls(jsonb_build_object('displayName', CASE WHEN l.explicit_display_name THEN l.display_name END, 'firstName', l.first_name,
              'lastName', l.last_name, 'email', l.email, 'phone', l.phone, 'role', l.role, 'company', l.company, 'context', l.context,
              'shareTitle', l.share_title, 'shareDescription', l.share_description, 'shareThumbnailUrl', l.share_thumbnail_url,
              'prospectLogoUrl', l.prospect_logo_url, 'prospectDomain', l.prospect_domain, 'externalId', l.external_id,
              'active', CASE WHEN NOT l.active THEN false END)),
            l.created_at
       FROM bench_gen.links_plan l JOIN bench_gen.jobs j ON j.org = l.org AND j.job_no = l.job_no AND ${SAME_CAMPAIGN}
      WHERE l.org = $1 ORDER BY j.id, l.job_rank`,
    [spec.id],
  );
  // The links themselves (thumbnail provided), in creation order.
  await db.query(
    `INSERT INTO custom_links (organization_id, id, slug, display_name, active, external_id, first_name, last_name, email, phone, role, company, context,
       share_title, share_description, share_thumbnail_url, prospect_logo_url, prospect_domain, campaign_id, job_id, thumbnail_status, created_at, updated_at)
     SELECT l.org, l.id, l.slug, l.display_name, l.active, l.external_id, l.first_name, l.last_name, l.email, l.phone, l.role, l.company, l.context,
            l.share_title, l.share_description, l.share_thumbnail_url, l.prospect_logo_url, l.prospect_domain, l.campaign_id, j.id, 'provided', l.created_at, l.created_at
       FROM bench_gen.links_plan l JOIN bench_gen.jobs j ON j.org = l.org AND j.job_no = l.job_no AND ${SAME_CAMPAIGN}
      WHERE l.org = $1 ORDER BY l.created_at, l.id`,
    [spec.id],
  );
  // Each prospect's first link; a quarter of prospects respond (some of their sessions start from it).
  await db.query(
    `INSERT INTO bench_gen.prospect_links (org, prospect_n, link_id, campaign_id, slug, created_at, responder)
     SELECT DISTINCT ON (org, prospect_n) org, prospect_n, id, campaign_id, slug, created_at, random() < 0.25
       FROM bench_gen.links_plan WHERE org = $1 ORDER BY org, prospect_n, created_at, id`,
    [spec.id],
  );
}

// ---------------------------------------------------------------------------------------------
// Generation: sessions (into the stage first; people and accounts are derived from the stage)
// ---------------------------------------------------------------------------------------------

/** The session columns written from the stage (person_id and effective_qualification_status come from the people). */
const SESSION_COLUMNS = `organization_id, id, environment, analysis_status, display_id, start_time, end_time, session_type, email, email_key, name,
  business, phone, qualification_status, qualification_rationale, qualification_source, qualification_assessed_at, qualification_rubric_version_id,
  buying_intent, booked_status, session_status, sentiment, engagement_level, primary_intent, summary_markdown, utm_source, device, geo_country,
  tracking, details, custom_link_id, custom_link_campaign_id, fingerprint, created_at, updated_at`;

// JSON documents are built as text and cast once: much cheaper than nested jsonb_build_object
// for a million rows. Values are SQL expressions rendered as JSON text; vocabulary strings contain
// no quote or backslash (checked at start-up), so they are quoted without escaping.
const jStr = (expr) => `coalesce('"' || (${expr}) || '"', 'null')`;
const jNum = (expr) => `coalesce((${expr})::text, 'null')`;
const jStrings = (arrayExpr) => `('["' || array_to_string(${arrayExpr}, '", "') || '"]')`;
/** SQL text of a JSON object from [key, SQL JSON-text expression] pairs. */
const jObject = (fields) => `concat('{', ${Object.entries(fields).map(([key, value], i) => `'${i > 0 ? ', ' : ''}"${key}": ', ${value}`).join(', ')}, '}')`;
/** SQL text of a JSON array of items, each with an optional SQL condition. */
const jArray = (items) => `('[' || concat_ws(', ', ${items.map(([value, condition]) => (condition ? `CASE WHEN ${condition} THEN ${value} END` : value)).join(', ')}) || ']')`;

function assertJsonSafeVocabulary() {
  for (const [name, list] of Object.entries(VOCAB)) {
    for (const value of list) if (value !== null && /["\\\u0000-\u001f]/.test(value)) throw new Error(`vocabulary ${name} has a value that needs JSON escaping: ${value}`);
  }
}

/** The tracking document (session-record.ts trackingOf: every TRACKING_FIELDS key, null when unknown). */
function trackingJson(p) {
  return `(${jObject({
    utmSource: jStr('tr.utm_source'),
    utmMedium: jStr('tr.utm_medium'),
    utmCampaign: jStr(`CASE WHEN b.via_link THEN 'custom-link' WHEN tr.utm_source IS NOT NULL THEN ${p.pick('utm_campaigns', 'x.r_camp')} END`),
    utmTerm: jStr(`CASE WHEN tr.utm_medium = 'cpc' THEN ${p.pick('utm_terms', 'x.r_term')} END`),
    utmContent: jStr(`CASE WHEN tr.utm_medium IN ('cpc', 'paid_social') THEN ${p.pick('utm_contents', 'x.r_cont')} END`),
    referrerUrl: jStr(`CASE tr.utm_source WHEN 'google' THEN 'https://www.google.com/' WHEN 'bing' THEN 'https://www.bing.com/'
        WHEN 'linkedin' THEN 'https://www.linkedin.com/' WHEN 'facebook' THEN 'https://www.facebook.com/' WHEN 'twitter' THEN 'https://t.co/'
        WHEN 'youtube' THEN 'https://www.youtube.com/' WHEN 'g2' THEN 'https://www.g2.com/products/example/reviews'
        WHEN 'capterra' THEN 'https://www.capterra.com/' WHEN 'partner' THEN 'https://partners.example.net/' END`),
    landingPageUrl: jStr(`CASE WHEN b.via_link THEN 'https://experience.example.com/?cl=' || pl.slug
        ELSE 'https://www.example.com/' || ${p.pick('landing_paths', 'x.r_path')}
             || CASE WHEN tr.utm_source IS NOT NULL THEN '?utm_source=' || tr.utm_source || coalesce('&utm_medium=' || tr.utm_medium, '') ELSE '' END END`),
    device: jStr('tr.device'),
    browser: jStr('tr.browser'),
    os: jStr('tr.os'),
    geoCountry: jStr('tr.geo_country'),
    geoRegion: jStr('tr.geo_region'),
    geoCity: jStr('tr.geo_city'),
  })})::jsonb`;
}

/** The details document (session-record.ts SessionDetails) of a session: qualification context, next steps, timeline, topics, objections. */
function detailsJson(p) {
  const NF = VOCAB.features.length;
  const f1 = p.at('features', 'm.fi');
  const f2 = p.at('features', `1 + (m.fi + floor(x.r_f2 * ${NF - 1})::int) % ${NF}`);
  const milestone = (type, description, offset, features, order) =>
    jObject({ milestoneType: `'"${type}"'`, description, timestampOffsetS: offset, featuresMentioned: features, sequenceOrder: `'${order}'` });
  return `(${jObject({
    qualificationReason: jStr(`CASE q.status WHEN 'qualified' THEN ${p.pick('qualified_reasons', 'x.r_x1')} WHEN 'unqualified' THEN ${p.pick('unqualified_reasons', 'x.r_x1')} END`),
    qualificationStage: jStr(`CASE WHEN q.status IS NOT NULL THEN ${p.pick('stages', 'x.r_x2')} END`),
    budgetRange: jStr(`CASE WHEN q.status = 'qualified' OR x.r_x3 < 0.1 THEN ${p.pick('budgets', 'x.r_x4')} END`),
    buyingTimeline: jStr(`CASE WHEN b.intent IN ('high', 'medium') THEN ${p.pick('timelines', 'x.r_x4')} END`),
    decisionMakerRole: jStr(p.pick('decision_roles', 'x.r_x5')),
    isDecisionMaker: jNum('CASE WHEN x.r_x6 < 0.1 THEN NULL ELSE x.r_x6 > 0.65 END'),
    confidenceScore: jNum('round((0.35 + 0.63 * x.r_x7)::numeric, 2)'),
    nextSteps: jStrings(`(${p.list('next_steps')} || ${p.list('next_steps')})[m.ni + 1 : m.ni + 1 + floor(x.r_x3 * 3)::int]`),
    summaryBullets: jStrings(`(${p.list('bullets')} || ${p.list('bullets')})[m.bi + 1 : m.bi + 2 + (x.r_x2 < 0.5)::int]`),
    audioDurationSeconds: jNum(`CASE WHEN b.session_type <> 'guided_tour' THEN b.dur_s END`),
    timelineEvents: jArray([
      [milestone('intro', `'"Introductions"'`, `'0'`, `'[]'`, 1)],
      [milestone('discovery', `'"Discovery: current process and team size"'`, jNum('round(b.dur_s * 0.15)::int'), `'[]'`, 2)],
      [milestone('demo', jStr(`'Demo of ' || ${f1}`), jNum('round(b.dur_s * 0.35)::int'), `('["' || ${f1} || '", "' || ${f2} || '"]')`, 3)],
      [milestone('pricing', `'"Pricing discussion"'`, jNum('round(b.dur_s * 0.7)::int'), `'["pricing tiers"]'`, 4), `b.intent IN ('high', 'medium')`],
    ]),
    topics: jArray([
      [jObject({ topic: jStr(f1), interestLevel: jStr(p.pick('interest_levels', 'x.r_x5')), timeDiscussedS: jNum('round(b.dur_s * 0.3)::int'), outcome: jStr(p.pick('outcomes', 'x.r_x8')) })],
      [jObject({ topic: jStr(f2), interestLevel: jStr(p.pick('interest_levels', 'x.r_x6')), timeDiscussedS: jNum('round(b.dur_s * 0.15)::int'), outcome: jStr(p.pick('outcomes', 'x.r_x7')) }), 'x.r_x4 < 0.6'],
    ]),
    objections: jArray([
      [jObject({
        objectionType: jStr(p.at('objection_types', 'm.oi')), description: jStr(p.at('objection_texts', 'm.oi')), severity: jStr(p.pick('severities', 'x.r_x7')),
        handled: jNum('x.r_x6 < 0.7'), resolutionNotes: jStr(`CASE WHEN x.r_x6 < 0.7 THEN ${p.pick('resolutions', 'x.r_x1')} END`), timestampOffsetS: jNum('round(b.dur_s * 0.6)::int'),
      }), 'x.r_x8 >= 0.55'],
    ]),
  })})::jsonb`;
}

/**
 * Sessions g in [lo, hi] of one organization into the stage: g <= sessions are visible (production,
 * analyzed), the rest staging or pending; the first `people` visible ones give each person a
 * session, later ones repeat people (skewed) or are anonymous (~8 %). Start times over the past
 * year (growing towards now) with weekday and business-hour rhythm in the visitor's time zone.
 */
async function stageSessions(db, spec, now, lo, hi) {
  const p = new Params();
  const S = p.v(spec.sessions, 'int');
  const P = p.v(spec.people, 'int');
  const NOW = p.v(now, 'timestamptz');
  const anonRate = Math.min(1, Math.max(0, (0.08 * spec.sessions) / Math.max(1, spec.sessions - spec.people)));
  const randoms = ['anon', 'rep', 'env', 'link', 'type', 'status', 'intent', 'd1', 'd2', 'd3', 'd4', 't', 'wk', 'h1', 'h2', 'h3', 'min', 'geo', 'geo2',
    'end', 'qn', 'q', 'src', 'ass', 'rat', 'bn', 'b', 'sent', 'eng', 'pi', 'utm', 'med', 'camp', 'term', 'cont', 'path', 'dev', 'case', 'name', 'bus',
    'ph', 'sum', 'f1', 'f2', 'b1', 'ns', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'created'];
  const NF = VOCAB.features.length;
  const NB = VOCAB.bullets.length;
  const NN = VOCAB.next_steps.length;
  const NO = VOCAB.objection_types.length;
  const f1 = p.at('features', 'm.fi');
  const f2 = p.at('features', `1 + (m.fi + floor(x.r_f2 * ${NF - 1})::int) % ${NF}`);
  const bullet = (k) => p.at('bullets', `1 + (m.bi + ${k}) % ${NB}`);
  const place = p.at('places', 'b.place_i');
  // One chunk of staged sessions: who, when, what the analysis said, tracking and details documents.
  await db.query(
    `INSERT INTO bench_gen.sessions_stage (${SESSION_COLUMNS})
     WITH x AS MATERIALIZED (SELECT g, gen_random_uuid() AS id, ${randoms.map((r) => `random() AS r_${r}`).join(', ')}
               FROM generate_series(${p.v(lo, 'int')}, ${p.v(hi, 'int')}) AS g)
     SELECT ${p.v(spec.id, 'uuid')}, x.id, a.environment, a.analysis_status,
            'S-' || to_char(t.start_time, 'YYMMDD') || '-' || upper(substr(md5(x.g::text || ${p.v(spec.id, 'text')}), 1, 6)),
            t.start_time, t.end_time, b.session_type, e.email, lower(e.email), e.name, e.business, e.phone,
            q.status, q.rationale, q.source, q.assessed_at, q.rubric, b.intent, q.booked, b.session_status,
            CASE WHEN x.r_sent < 0.03 THEN NULL WHEN b.intent IN ('high', 'medium') THEN ${p.pick('sentiments_warm', 'x.r_sent')} ELSE ${p.pick('sentiments_cool', 'x.r_sent')} END,
            CASE WHEN b.dur_s * (0.7 + 0.6 * x.r_eng) > 900 THEN 'high' WHEN b.dur_s * (0.7 + 0.6 * x.r_eng) > 300 THEN 'medium' ELSE 'low' END,
            ${p.pick('primary_intents', 'x.r_pi')},
            CASE WHEN x.r_sum < 0.03 THEN NULL WHEN x.r_sum < 0.04 THEN ''
                 ELSE '**' || coalesce(e.name, 'Anonymous visitor') || '**' || coalesce(' (' || e.business || ')', '') || ' spent '
                      || greatest(1, round(b.dur_s / 60.0))::int || ' minutes in a'
                      || CASE b.session_type WHEN 'ai_demo' THEN 'n AI demo' WHEN 'voice_demo' THEN ' voice demo' ELSE ' guided tour' END
                      || ' focused on ' || ${f1} || ' and ' || ${f2} || E'.\\n\\n- ' || ${bullet(0)} || E'\\n- ' || ${bullet(1)} || E'\\n- ' || ${bullet(2)}
                      || E'\\n\\n**Next step:** ' || ${p.pick('next_steps', 'x.r_ns')} || '.' END,
            tr.utm_source, tr.device, tr.geo_country,
            ${trackingJson(p)},
            ${detailsJson(p)},
            CASE WHEN b.via_link THEN pl.link_id END, CASE WHEN b.via_link THEN pl.campaign_id END,
            md5(x.id::text) || md5(x.g::text || ${p.v(spec.id, 'text')}),
            c.created_at, CASE WHEN q.source = 'manual' AND q.assessed_at > c.created_at THEN q.assessed_at ELSE c.created_at END
       FROM x
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.g <= ${S} OR x.r_env >= 0.4 THEN 'production' ELSE 'staging' END AS environment,
               CASE WHEN x.g <= ${S} OR x.r_env < 0.28 THEN 'analyzed' ELSE 'pending' END AS analysis_status,
               x.g > ${S} AND x.r_env >= 0.28 AS recent,
               CASE WHEN x.g <= ${S} THEN
                      CASE WHEN x.g <= ${P} THEN x.g WHEN x.r_anon < ${p.v(anonRate, 'float8')} THEN NULL
                           ELSE 1 + (hashint4(floor(${P} * power(x.r_rep, 1.5))::int) & 2147483647) % ${P} END
                    WHEN x.r_anon < 0.1 THEN NULL ELSE 1 + floor(x.r_rep * ${P})::int END AS pn OFFSET 0) a
       LEFT JOIN bench_gen.prospects p ON p.org = ${p.v(spec.id, 'uuid')} AND p.n = a.pn
       LEFT JOIN bench_gen.prospect_links pl ON pl.org = ${p.v(spec.id, 'uuid')} AND pl.prospect_n = a.pn
      CROSS JOIN LATERAL (
        SELECT pl.responder IS TRUE AND x.r_link < 0.4 AS via_link, ${p.pick('session_types', 'x.r_type')} AS session_type,
               ${p.pick('session_statuses', 'x.r_status')} AS session_status, ${p.pick('intents', 'x.r_intent')} AS intent,
               CASE WHEN a.pn IS NULL OR x.r_geo < 0.1 THEN ${p.pick('weighted_places', 'x.r_geo2')}::int ELSE p.place_i END AS place_i OFFSET 0) b0
      CROSS JOIN LATERAL (
        SELECT b0.*, greatest(20, least(5400, exp(ln(CASE b0.session_type WHEN 'guided_tour' THEN 240 WHEN 'voice_demo' THEN 900 ELSE 600 END)
                                                  + 0.7 * ${normal('x.r_d1', 'x.r_d2', 'x.r_d3', 'x.r_d4')})
                                              * CASE WHEN b0.session_status IN ('abandoned', 'error') THEN 0.3 ELSE 1 END))::int AS dur_s OFFSET 0) b
      CROSS JOIN LATERAL (
        SELECT CASE WHEN b.via_link THEN pl.created_at + (${NOW} - pl.created_at) * power(x.r_t, 3)
                    WHEN a.recent THEN ${NOW} - x.r_t * interval '3 days'
                    WHEN x.r_t < 0.3 THEN ${NOW} - 365 * (x.r_t / 0.3) * interval '1 day'
                    ELSE ${NOW} - 365 * (1 - sqrt((x.r_t - 0.3) / 0.7)) * interval '1 day' END AS t0 OFFSET 0) t0
      CROSS JOIN LATERAL (
        SELECT ${ms(`least(greatest(
                 date_trunc('day', t0.t0)
                   + CASE WHEN extract(isodow FROM t0.t0) >= 6 AND x.r_wk < 0.7
                          THEN (floor(x.r_wk / 0.7 * 5) + 1 - extract(isodow FROM t0.t0)) * interval '1 day' ELSE interval '0' END
                   + (7.5 + 11 * (x.r_h1 + x.r_h2 + x.r_h3) / 3 - split_part(${place}, '|', 4)::int) * interval '1 hour' + x.r_min * interval '1 minute',
                 CASE WHEN b.via_link THEN pl.created_at + interval '2 minutes' ELSE '-infinity' END),
               ${NOW} - (b.dur_s + 600) * interval '1 second')`)} AS start_time OFFSET 0) t1
      CROSS JOIN LATERAL (
        SELECT t1.start_time, t1.start_time + (b.dur_s * 1000 + floor(x.r_min * 1000)::int) * interval '1 millisecond' AS finish,
               CASE WHEN x.r_end >= 0.03 THEN t1.start_time + (b.dur_s * 1000 + floor(x.r_min * 1000)::int) * interval '1 millisecond' END AS end_time OFFSET 0) t
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.r_qn < 0.1 THEN NULL
                    WHEN x.r_q < CASE b.intent WHEN 'high' THEN 0.75 WHEN 'medium' THEN 0.4 WHEN 'low' THEN 0.12 WHEN 'none' THEN 0.03 ELSE 0.2 END THEN 'qualified'
                    ELSE 'unqualified' END AS status OFFSET 0) q0
      CROSS JOIN LATERAL (
        SELECT q0.status,
               CASE WHEN q0.status IS NULL THEN NULL WHEN x.r_src < 0.08 THEN 'manual' WHEN x.r_src < 0.11 THEN NULL ELSE 'automatic' END AS source,
               CASE WHEN x.r_rat >= 0.9 THEN NULL WHEN q0.status = 'qualified' THEN ${p.pick('qualified_rationales', 'x.r_rat / 0.9')}
                    WHEN q0.status = 'unqualified' THEN ${p.pick('unqualified_rationales', 'x.r_rat / 0.9')} END AS rationale,
               CASE WHEN q0.status IS NULL THEN NULL WHEN t.start_time < ${NOW} - interval '240 days' THEN 'rubric-v1'
                    WHEN t.start_time < ${NOW} - interval '90 days' THEN 'rubric-v2' ELSE 'rubric-v3' END AS rubric,
               CASE WHEN x.r_bn < 0.1 THEN NULL WHEN x.r_b < CASE WHEN q0.status = 'qualified' THEN 0.35 ELSE 0.04 END THEN 'booked' ELSE 'not_booked' END AS booked OFFSET 0) q1
      CROSS JOIN LATERAL (
        SELECT q1.*, CASE WHEN q1.status IS NULL OR x.r_ass < 0.04 THEN NULL
                          WHEN q1.source = 'manual' THEN ${ms(`least(t.start_time + (1 + 9 * x.r_ass) * interval '1 day', ${NOW})`)}
                          ELSE ${ms(`least(t.finish + (30 + 120 * x.r_ass) * interval '1 second', ${NOW})`)} END AS assessed_at OFFSET 0) q
      CROSS JOIN LATERAL (
        SELECT CASE WHEN p.email IS NULL THEN NULL WHEN x.r_case < 0.85 THEN p.email
                    WHEN x.r_case < 0.95 THEN initcap(split_part(p.email, '@', 1)) || '@' || split_part(p.email, '@', 2) ELSE upper(p.email) END AS email,
               CASE WHEN a.pn IS NULL THEN CASE WHEN x.r_name < 0.3 THEN ${p.pick('first_names', 'x.r_name / 0.3')} END
                    WHEN x.r_name < 0.8 THEN p.first || ' ' || p.last WHEN x.r_name < 0.88 THEN p.first END AS name,
               CASE WHEN a.pn IS NULL THEN NULL WHEN p.free THEN CASE WHEN x.r_bus < 0.15 THEN p.business END
                    WHEN x.r_bus < 0.6 THEN p.business WHEN x.r_bus < 0.75 THEN p.business_short WHEN x.r_bus < 0.85 THEN p.business_legal END AS business,
               CASE WHEN x.r_ph < 0.3 THEN p.phone END AS phone OFFSET 0) e
      CROSS JOIN LATERAL (
        SELECT CASE WHEN b.via_link THEN 'outbound' ELSE ${p.pick('utm_sources', 'x.r_utm')} END AS utm_source,
               ${p.pick('devices', 'x.r_dev')} AS dev, CASE WHEN x.r_geo < 0.92 THEN ${place} END AS place OFFSET 0) tr0
      CROSS JOIN LATERAL (
        SELECT tr0.utm_source,
               CASE tr0.utm_source WHEN 'outbound' THEN 'email' WHEN 'google' THEN CASE WHEN x.r_med < 0.6 THEN 'cpc' ELSE 'organic' END
                    WHEN 'bing' THEN 'cpc' WHEN 'linkedin' THEN 'paid_social' WHEN 'facebook' THEN 'paid_social' WHEN 'twitter' THEN 'social'
                    WHEN 'newsletter' THEN 'email' WHEN 'partner' THEN 'referral' WHEN 'g2' THEN 'review' WHEN 'capterra' THEN 'review'
                    WHEN 'youtube' THEN 'video' WHEN 'webinar' THEN 'event' END AS utm_medium,
               nullif(split_part(tr0.dev, '|', 1), '') AS device, nullif(split_part(tr0.dev, '|', 2), '') AS browser, nullif(split_part(tr0.dev, '|', 3), '') AS os,
               nullif(split_part(tr0.place, '|', 1), '') AS geo_country, nullif(split_part(tr0.place, '|', 2), '') AS geo_region,
               nullif(split_part(tr0.place, '|', 3), '') AS geo_city OFFSET 0) tr
      CROSS JOIN LATERAL (
        SELECT 1 + floor(x.r_f1 * ${NF})::int AS fi, floor(x.r_b1 * ${NB})::int AS bi, floor(x.r_x5 * ${NN})::int AS ni,
               1 + floor(x.r_x2 * ${NO})::int AS oi OFFSET 0) m
      CROSS JOIN LATERAL (SELECT ${ms(`least(t.finish + (60 + 540 * x.r_created) * interval '1 second', ${NOW})`)} AS created_at OFFSET 0) c`,
    p.values,
  );
}

// ---------------------------------------------------------------------------------------------
// Derivation: people and accounts (person-rollup.ts, intent.ts, account-rollup.ts, account-domain.ts)
// ---------------------------------------------------------------------------------------------

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
/** VISIBLE on a table alias. */
const visibleOf = (alias) => `${alias}.environment = 'production' AND ${alias}.analysis_status = 'analyzed'`;
/** A value of a field that is non-empty (person-rollup.ts nonEmpty). */
const nonEmpty = (column) => `${column} IS NOT NULL AND btrim(${column}) <> ''`;
const LATEST = `ORDER BY s.start_time DESC, s.id DESC`;

/** Every person's rollup fields except intent, as SQL aggregates of its visible sessions (all organizations). */
async function stagePeople(db) {
  // Latest non-empty values, first/last source, latest location, effective qualification (CONTRACT §5 order), sums and extremes.
  await db.query(
    `INSERT INTO bench_gen.people_stage (organization_id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at,
       total_time_spent_seconds, first_source, last_source, last_location, qualification_status, qualification_rationale, qualification_source,
       qualification_assessed_at, qualification_rubric_version_id, buying_intent, summary_markdown)
     SELECT organization_id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at, total_time_spent_seconds,
            first_source, last_source, last_location, (qualification).status, (qualification).rationale, (qualification).source,
            (qualification).assessed_at, (qualification).rubric_version_id, buying_intent, summary_markdown
       FROM (
         SELECT s.organization_id, s.email_key,
                (array_agg(s.name ${LATEST}) FILTER (WHERE ${nonEmpty('s.name')}))[1] AS name,
                (array_agg(s.phone ${LATEST}) FILTER (WHERE ${nonEmpty('s.phone')}))[1] AS phone,
                (array_agg(s.business ${LATEST}) FILTER (WHERE ${nonEmpty('s.business')}))[1] AS business,
                count(*) AS total_sessions, count(*) FILTER (WHERE s.booked_status = 'booked') AS booked_sessions,
                min(s.start_time) AS first_seen_at, max(coalesce(s.end_time, s.start_time)) AS last_seen_at,
                sum(floor(greatest(0, extract(epoch FROM coalesce(s.end_time, s.start_time) - s.start_time))))::bigint AS total_time_spent_seconds,
                (array_agg(s.utm_source ORDER BY s.start_time, s.id))[1] AS first_source,
                (array_agg(s.utm_source ${LATEST}))[1] AS last_source,
                (array_agg(loc.location ${LATEST}) FILTER (WHERE loc.location IS NOT NULL))[1] AS last_location,
                (array_agg(ROW(s.qualification_status, s.qualification_rationale, s.qualification_source, s.qualification_assessed_at,
                               s.qualification_rubric_version_id)::bench_gen.qualification
                           ORDER BY coalesce(s.qualification_assessed_at, s.start_time) DESC, s.qualification_source IS NOT DISTINCT FROM 'manual' DESC,
                                    s.start_time DESC, s.id DESC)
                   FILTER (WHERE s.qualification_status IS NOT NULL))[1] AS qualification,
                (array_agg(s.buying_intent ${LATEST}))[1] AS buying_intent,
                (array_agg(s.summary_markdown ${LATEST}) FILTER (WHERE ${nonEmpty('s.summary_markdown')}))[1] AS summary_markdown
           FROM bench_gen.sessions_stage s
          CROSS JOIN LATERAL (
            SELECT nullif(concat_ws(', ', CASE WHEN ${nonEmpty(`s.tracking->>'geoCity'`)} THEN s.tracking->>'geoCity' END,
                                          CASE WHEN ${nonEmpty(`s.tracking->>'geoRegion'`)} THEN s.tracking->>'geoRegion' END,
                                          CASE WHEN ${nonEmpty('s.geo_country')} THEN s.geo_country END), '') AS location OFFSET 0) loc
          WHERE ${visibleOf('s')} AND s.email_key IS NOT NULL
          GROUP BY s.organization_id, s.email_key
       ) x`,
  );
}

/**
 * Intent scores with the service's own intentScore / overallIntentFor (recency decay), streamed
 * from a cursor over the stage in (person, start, id) order and written back in batches.
 */
async function computeIntent(db, now) {
  const { intentScore, overallIntentFor } = require(path.join(DIST, 'modules/people/rules/intent'));
  const asOf = new Date(now);
  const out = { org: [], key: [], score: [], overall: [] };
  let current = null;
  const flushPerson = () => {
    if (!current) return;
    const score = intentScore(current.sessions, asOf);
    out.org.push(current.org);
    out.key.push(current.key);
    out.score.push(score);
    out.overall.push(overallIntentFor(score));
  };
  const writeBatch = async () => {
    if (out.org.length === 0) return;
    // A batch of scores.
    await db.query(`INSERT INTO bench_gen.intent SELECT * FROM unnest($1::uuid[], $2::text[], $3::float8[], $4::text[])`, [out.org, out.key, out.score, out.overall]);
    for (const list of Object.values(out)) list.length = 0;
  };
  await db.query('BEGIN');
  // The visible sessions of every person, oldest first (the order rollUpPerson sorts them in).
  await db.query(
    `DECLARE intent_cursor NO SCROLL CURSOR FOR
       SELECT organization_id, email_key, (extract(epoch FROM start_time) * 1000)::float8, buying_intent FROM bench_gen.sessions_stage
        WHERE ${VISIBLE} AND email_key IS NOT NULL ORDER BY organization_id, email_key, start_time, id`,
  );
  for (;;) {
    const { rows } = await db.query({ text: 'FETCH 50000 FROM intent_cursor', rowMode: 'array' });
    if (rows.length === 0) break;
    for (const [org, key, startMs, buyingIntent] of rows) {
      if (!current || current.key !== key || current.org !== org) {
        flushPerson();
        current = { org, key, sessions: [] };
      }
      current.sessions.push({ startTime: new Date(startMs), buyingIntent });
    }
    if (out.org.length >= 20000) await writeBatch();
  }
  flushPerson();
  await writeBatch();
  await db.query('COMMIT');
}

/** People rows: aggregates + account domain (per email host, from accountDomainOf) + intent; ids are uuid v7 of their creation. */
async function insertPeople(db, now) {
  await db.query(`CREATE INDEX ON bench_gen.intent (organization_id, email_key)`);
  // People in order of creation (their first session), updated by the last intent refresh (now).
  await db.query(
    `INSERT INTO people (organization_id, id, email_key, name, phone, business, total_sessions, booked_sessions, first_seen_at, last_seen_at,
       total_time_spent_seconds, first_source, last_source, last_location, qualification_status, qualification_rationale, qualification_source,
       qualification_assessed_at, qualification_rubric_version_id, buying_intent, account_domain, summary_markdown, intent_score, overall_intent,
       intent_calculated_at, created_at, updated_at)
     SELECT ps.organization_id, ${uuid7('c.created_at')}, ps.email_key, ps.name, ps.phone, ps.business, ps.total_sessions, ps.booked_sessions,
            ps.first_seen_at, ps.last_seen_at, ps.total_time_spent_seconds, ps.first_source, ps.last_source, ps.last_location,
            ps.qualification_status, ps.qualification_rationale, ps.qualification_source, ps.qualification_assessed_at,
            ps.qualification_rubric_version_id, ps.buying_intent, h.account_domain, ps.summary_markdown, i.score, i.overall, $1::timestamptz,
            c.created_at, $1::timestamptz
       FROM bench_gen.people_stage ps
       JOIN bench_gen.intent i ON i.organization_id = ps.organization_id AND i.email_key = ps.email_key
       LEFT JOIN bench_gen.hosts h ON h.host = split_part(ps.email_key, '@', 2)
      CROSS JOIN LATERAL (SELECT ${ms(`least(ps.first_seen_at + interval '3 minutes' + random() * interval '5 minutes', $1::timestamptz)`)} AS created_at OFFSET 0) c
      ORDER BY c.created_at`,
    [now],
  );
}

/**
 * Accounts from their people (account-rollup.ts): company name = most frequent non-empty business,
 * ties to the business of the most recently seen person (lastSeenAt desc, id desc); summary of the
 * most recent person who has one.
 */
async function insertAccounts(db) {
  // Accounts in order of creation (their first person).
  await db.query(
    `INSERT INTO accounts (organization_id, id, account_domain, company_name, total_users, total_sessions, booked_sessions, high_intent_users,
       qualified_users, total_time_spent_seconds, last_seen_at, summary_markdown, created_at, updated_at)
     WITH ranked AS (
       SELECT p.*, row_number() OVER (PARTITION BY organization_id, account_domain ORDER BY last_seen_at DESC, id DESC) AS recency
         FROM people p WHERE account_domain IS NOT NULL),
     names AS (
       SELECT DISTINCT ON (organization_id, account_domain) organization_id, account_domain, business
         FROM ranked WHERE ${nonEmpty('business')}
        GROUP BY organization_id, account_domain, business
        ORDER BY organization_id, account_domain, count(*) DESC, min(recency))
     SELECT r.organization_id, ${uuid7('min(r.created_at)')}, r.account_domain, n.business, count(*), sum(r.total_sessions), sum(r.booked_sessions),
            count(*) FILTER (WHERE r.overall_intent = 'high'), count(*) FILTER (WHERE r.qualification_status = 'qualified'),
            sum(r.total_time_spent_seconds), max(r.last_seen_at),
            (array_agg(r.summary_markdown ORDER BY r.recency) FILTER (WHERE ${nonEmpty('r.summary_markdown')}))[1],
            min(r.created_at), max(r.updated_at)
       FROM ranked r LEFT JOIN names n ON n.organization_id = r.organization_id AND n.account_domain = r.account_domain
      GROUP BY r.organization_id, r.account_domain, n.business
      ORDER BY min(r.created_at)`,
  );
}

/** Sessions of one organization from the stage in start-time order, ~100k rows per statement, with person and effective qualification. */
async function insertSessions(db, spec) {
  const total = spec.sessions + spec.extraSessions;
  const chunks = Math.max(1, Math.ceil(total / SESSION_CHUNK));
  const fractions = Array.from({ length: chunks - 1 }, (_, i) => (i + 1) / chunks);
  // Chunk boundaries: start-time quantiles.
  const bounds = fractions.length === 0 ? [] : (await db.query(
    `SELECT percentile_disc($2::float8[]) WITHIN GROUP (ORDER BY start_time) AS bounds FROM bench_gen.sessions_stage WHERE organization_id = $1`,
    [spec.id, fractions],
  )).rows[0].bounds;
  const edges = [null, ...bounds, null];
  for (let i = 0; i < chunks; i += 1) {
    // One chunk: visible sessions with an email point at their person and carry its effective qualification; others keep their own.
    await db.query(
      `INSERT INTO sessions (${SESSION_COLUMNS}, person_id, effective_qualification_status)
       SELECT ${SESSION_COLUMNS.split(',').map((c) => `s.${c.trim()}`).join(', ')}, p.id, CASE WHEN p.id IS NULL THEN s.qualification_status ELSE p.qualification_status END
         FROM bench_gen.sessions_stage s
         LEFT JOIN people p ON p.organization_id = s.organization_id AND p.email_key = s.email_key AND ${visibleOf('s')}
        WHERE s.organization_id = $1 AND ($2::timestamptz IS NULL OR s.start_time >= $2) AND ($3::timestamptz IS NULL OR s.start_time < $3)
        ORDER BY s.start_time, s.id`,
      [spec.id, edges[i], edges[i + 1]],
    );
  }
}

/** Transcripts for a share of one organization's visible sessions: 20–60 alternating turns through the session (SessionsRepository.replaceTranscript shape). */
async function insertTranscripts(db, spec) {
  if (spec.transcripts === 0) return;
  const p = new Params();
  const NA = VOCAB.agent_lines.length;
  const NP = VOCAB.prospect_lines.length;
  const line = (list, n) => `replace(replace(replace(replace(${p.at(list, `1 + least(${n - 1}, ((i - 1) / 2) * ${n} / greatest(1, t.turns / 2) + floor(random() * 2)::int)`)},
      '{first}', coalesce(split_part(t.name, ' ', 1), 'there')), '{company}', coalesce(t.business, 'your team')),
      '{feature}', coalesce(t.details->'topics'->0->>'topic', 'Custom Links')), '{competitor}', ${p.pick('competitors', 't.r_comp')})`;
  await db.query(
    `INSERT INTO session_transcripts (organization_id, session_id, entries, total, updated_at)
     WITH picked AS MATERIALIZED (
       SELECT s.organization_id, s.id, s.start_time, s.end_time, s.created_at, s.name, s.business, s.details
         FROM bench_gen.sessions_stage s WHERE s.organization_id = ${p.v(spec.id, 'uuid')} AND ${visibleOf('s')}
        ORDER BY random() LIMIT ${p.v(spec.transcripts, 'int')}),
     -- Random columns apart from the ORDER BY random() above: the planner would reuse its sort key for them.
     t AS MATERIALIZED (SELECT picked.*, 20 + floor(random() * 41)::int AS turns, random() AS r_comp FROM picked)
     SELECT t.organization_id, t.id, e.entries, t.turns, t.created_at
       FROM t
      CROSS JOIN LATERAL (
        SELECT jsonb_agg(jsonb_build_object(
                 'speaker', CASE WHEN i % 2 = 1 THEN 'agent' ELSE 'prospect' END,
                 'text', CASE WHEN i = 1 THEN ${line('agent_lines', 1)} WHEN i % 2 = 1 THEN ${line('agent_lines', NA)} ELSE ${line('prospect_lines', NP)} END,
                 'timestamp', to_char(t.start_time + (i - 1) * coalesce(t.end_time - t.start_time, interval '10 minutes') / t.turns
                                      + floor(random() * 4000) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'sequenceNumber', i) ORDER BY i) AS entries
          FROM generate_series(1, t.turns) AS i OFFSET 0) e`,
    p.values,
  );
}

// ---------------------------------------------------------------------------------------------
// Generation: link engagement (visits, then their events)
// ---------------------------------------------------------------------------------------------

/** The event offsets (ms after the visit's start) of a human visit, by the types it contains. */
const TYPES_OF_VISIT = (f) => `(CASE WHEN ${f}.has_open THEN '{open}'::text[] ELSE '{}'::text[] END) || array_fill('page_view'::text, ARRAY[${f}.pv])
  || CASE WHEN ${f}.retry THEN '{page_view_retry}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.started THEN '{session_started}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.engaged THEN '{session_engaged}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.lead THEN '{lead_submitted}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.mclick THEN '{meeting_clicked}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.mbook THEN '{meeting_booked}'::text[] ELSE '{}'::text[] END
  || CASE WHEN ${f}.ended THEN '{session_ended}'::text[] ELSE '{}'::text[] END`;

const VISIT_COLUMNS = 'org, v, link_id, at, bot, visitor_id, session_id, types, last_pv, start_off, engaged_off, lead_off, mclick_off, mbook_off, end_off';
const AVERAGE_EVENTS_PER_ACTIVE_VISIT = 2.6;

/**
 * Visits of one organization's links: one per real session that came through a link (its own
 * start, end and outcome), bot scans of bot-only links, then human (and a few bot) visits on a
 * skewed choice of the active links (a few hot ones), enough to reach the --events total.
 */
async function planVisits(db, spec, now) {
  // Real sessions that came through a link: open, load(s), then the session's own lifecycle at its own times.
  const real = await db.query(
    `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
     SELECT s.organization_id, row_number() OVER (ORDER BY s.start_time, s.id), s.custom_link_id, s.start_time - f.start_off * interval '1 millisecond', false,
            CASE WHEN s.r_eph < 0.15 THEN NULL ELSE 'vis_' || substr(md5(s.custom_link_id::text || ':0'), 1, 22) END, s.id, ${TYPES_OF_VISIT('f')},
            f.has_open::int + f.pv, f.start_off, f.start_off + least(60000, f.dur / 3), f.start_off + (f.dur * 0.55)::int, f.start_off + (f.dur * 0.75)::int,
            f.start_off + (f.dur * 0.85)::int, f.start_off + f.dur
       FROM (SELECT s.*, random() AS r_eph, random() AS r_open, random() AS r_pv, random() AS r_retry, random() AS r_eng, random() AS r_lead, random() AS r_mc
               FROM bench_gen.sessions_stage s WHERE s.organization_id = $1 AND s.custom_link_id IS NOT NULL) s
      CROSS JOIN LATERAL (
        SELECT s.r_open < 0.9 AS has_open, CASE WHEN s.r_pv < 0.7 THEN 1 WHEN s.r_pv < 0.92 THEN 2 ELSE 3 END AS pv, s.r_retry < 0.02 AS retry, true AS started,
               (extract(epoch FROM coalesce(s.end_time - s.start_time, interval '10 minutes')) * 1000)::int AS dur,
               s.r_lead < CASE WHEN s.qualification_status = 'qualified' THEN 0.25 ELSE 0.05 END AS lead,
               s.booked_status = 'booked' OR s.r_mc < 0.06 AS mclick, s.booked_status IS NOT DISTINCT FROM 'booked' AS mbook, s.end_time IS NOT NULL AS ended OFFSET 0) f0
      CROSS JOIN LATERAL (SELECT f0.*, 6500 + f0.pv * 40000 AS start_off, f0.dur > 90000 AND (s.engagement_level <> 'low' OR s.r_eng < 0.5) AS engaged OFFSET 0) f`,
    [spec.id],
  );
  const realVisits = real.rowCount;
  // How many bot-only and active links there are.
  const { rows: [counts] } = await db.query(
    `SELECT count(*) FILTER (WHERE activity = 'bot')::int AS bot_links, count(*) FILTER (WHERE activity = 'active')::int AS active_links
       FROM bench_gen.links_plan WHERE org = $1`,
    [spec.id],
  );
  const botVisits = Math.round(counts.bot_links * 1.4);
  if (botVisits > 0) {
    // Mail-gateway scans of bot-only links shortly after they were sent: an open, sometimes a preview load.
    await db.query(
      `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
       WITH x AS MATERIALIZED (SELECT i, random() AS r_pick, random() AS r_t, random() AS r_pv FROM generate_series(1, $3::int) AS i)
       SELECT l.org, $2 + x.i, l.id, ${ms(`l.created_at + (5 + 300 * x.r_t) * interval '1 second'`)}, true, NULL, NULL,
              CASE WHEN x.r_pv < 0.3 THEN '{open,page_view}'::text[] ELSE '{open}'::text[] END, 2, 0, 0, 0, 0, 0, 0
         FROM x
         JOIN bench_gen.links_plan l ON l.org = $1 AND l.activity = 'bot'
                                    AND l.activity_rank = CASE WHEN x.i <= $4 THEN x.i ELSE 1 + floor(x.r_pick * $4)::int END`,
      [spec.id, realVisits, botVisits, counts.bot_links],
    );
  }
  // Active-link visits until the planned events reach --events (the last visits are cut when events are written).
  let next = realVisits + botVisits;
  for (let planned = await plannedEvents(db, spec.id); counts.active_links > 0 && planned < spec.events; planned = await plannedEvents(db, spec.id)) {
    const count = Math.ceil(((spec.events - planned) / AVERAGE_EVENTS_PER_ACTIVE_VISIT) * 1.05) + 20;
    await addActiveVisits(db, spec, next, count, counts.active_links, now);
    next += count;
  }
}

const plannedEvents = async (db, org) => Number((await db.query(`SELECT coalesce(sum(cardinality(types)), 0) AS n FROM bench_gen.visits_raw WHERE org = $1`, [org])).rows[0].n);

/** `count` visits (numbered after firstV) of active links: link rank ~ A·u^2.5 (a few hot links), time skewed towards the link's first days; 2 % are bot scans. */
async function addActiveVisits(db, spec, firstV, count, activeLinks, now) {
  await db.query(
    `INSERT INTO bench_gen.visits_raw (${VISIT_COLUMNS})
     WITH x AS MATERIALIZED (SELECT i, gen_random_uuid() AS sid, random() AS r_pick, random() AS r_t, random() AS r_eph, random() AS r_vis, random() AS r_bot,
                    random() AS r_open, random() AS r_pv, random() AS r_retry, random() AS r_sess, random() AS r_st, random() AS r_en, random() AS r_ld,
                    random() AS r_mc, random() AS r_end, random() AS r_d1, random() AS r_d2, random() AS r_d3, random() AS r_d4
               FROM generate_series(1, $3::int) AS i)
     SELECT l.org, $2 + x.i, l.id,
            ${ms(`l.created_at + greatest(interval '0', $5::timestamptz - interval '2 hours' - l.created_at) * power(x.r_t, 3)`)}, f.bot,
            CASE WHEN f.bot OR x.r_eph < 0.15 THEN NULL ELSE 'vis_' || substr(md5(l.id::text || ':' || floor(power(x.r_vis, 2.2) * 40)::int), 1, 22) END,
            CASE WHEN f.session THEN x.sid END, CASE WHEN f.bot THEN '{open}'::text[] ELSE ${TYPES_OF_VISIT('f')} END,
            f.has_open::int + f.pv, f.start_off, f.engaged_off, f.lead_off, f.mclick_off, f.mbook_off,
            greatest(f.engaged_off, f.lead_off, f.mbook_off) + 30000 + floor(x.r_d4 * 400000)::int
       FROM x
       JOIN bench_gen.links_plan l ON l.org = $1 AND l.activity = 'active' AND l.activity_rank = 1 + floor($4 * power(x.r_pick, 2.5))::int
      CROSS JOIN LATERAL (
        SELECT x.r_bot < 0.02 AS bot, x.r_open < 0.88 AS has_open, x.r_retry < 0.02 AS retry, x.r_sess < 0.05 AS session,
               CASE WHEN x.r_pv < 0.62 THEN 1 WHEN x.r_pv < 0.87 THEN 2 WHEN x.r_pv < 0.95 THEN 3 ELSE 4 + floor(x.r_d1 * 3)::int END AS pv OFFSET 0) f0
      CROSS JOIN LATERAL (
        SELECT f0.*, f0.session AND x.r_st < 0.97 AS started, f0.session AND x.r_en < 0.55 AS engaged, f0.session AND x.r_ld < 0.09 AS lead,
               f0.session AND x.r_mc < 0.12 AS mclick, f0.session AND x.r_mc < 0.054 AS mbook, f0.session AND x.r_end < 0.75 AS ended,
               6500 + f0.pv * 40000 AS start_off, 66500 + f0.pv * 40000 + floor(x.r_d1 * 180000)::int AS engaged_off,
               126500 + f0.pv * 40000 + floor(x.r_d1 * 180000)::int + floor(x.r_d2 * 120000)::int AS lead_off,
               206500 + f0.pv * 40000 + floor(x.r_d3 * 300000)::int AS mclick_off,
               251500 + f0.pv * 40000 + floor(x.r_d3 * 300000)::int + floor(x.r_d2 * 75000)::int AS mbook_off OFFSET 0) f`,
    [spec.id, firstV, count, activeLinks, now],
  );
}

/** Visits with the number of events before them in their organization (event ids and the --events cut). */
async function numberVisits(db) {
  // Running event count per organization, in visit order.
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.visits AS
     SELECT r.*, (sum(cardinality(r.types)) OVER (PARTITION BY r.org ORDER BY r.v) - cardinality(r.types))::bigint AS before FROM bench_gen.visits_raw r`,
  );
  await db.query(`CREATE INDEX ON bench_gen.visits (org, v)`);
}

/** One organization's link events, expanded from its visits in chunks of ~500k, cut at exactly --events. */
async function insertEvents(db, spec) {
  // Visit ranges holding ~500k events each.
  const { rows: chunks } = await db.query(
    `SELECT min(v) AS lo, max(v) AS hi FROM bench_gen.visits WHERE org = $1 AND before < $2 GROUP BY before / $3 ORDER BY 1`,
    [spec.id, spec.events, EVENT_CHUNK],
  );
  for (const { lo, hi } of chunks) {
    // Events of visits lo..hi: ids 'ev-' + zero-padded number; page views carry a page view id, visit events the visitor and session.
    await db.query(
      `INSERT INTO link_events (organization_id, event_id, custom_link_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, received_at)
       SELECT v.org, 'ev-' || lpad((v.before + e.ord)::text, 9, '0'), v.link_id, CASE WHEN e.type = 'page_view_retry' THEN 'page_view' ELSE e.type END, o.at,
              CASE WHEN e.type <> 'open' THEN 'pv_' || substr(md5(v.org::text || ':' || v.v || ':' ||
                     CASE WHEN e.type = 'page_view' THEN e.ord WHEN e.type = 'page_view_retry' THEN e.ord - 1 ELSE v.last_pv END), 1, 24) END,
              CASE WHEN e.type <> 'open' THEN v.visitor_id END, CASE WHEN e.type <> 'open' THEN v.session_id END, v.bot,
              o.at + (200 + (v.v * 7 + e.ord * 131) % 2800) * interval '1 millisecond'
         FROM bench_gen.visits v
        CROSS JOIN LATERAL unnest(v.types) WITH ORDINALITY AS e(type, ord)
        CROSS JOIN LATERAL (
          SELECT v.at + CASE e.type WHEN 'open' THEN 0 WHEN 'page_view' THEN 1500 + (e.ord - 1) * 40000 WHEN 'page_view_retry' THEN 4500 + (e.ord - 2) * 40000
                             WHEN 'session_started' THEN v.start_off WHEN 'session_engaged' THEN v.engaged_off WHEN 'lead_submitted' THEN v.lead_off
                             WHEN 'meeting_clicked' THEN v.mclick_off WHEN 'meeting_booked' THEN v.mbook_off ELSE v.end_off END * interval '1 millisecond' AS at OFFSET 0) o
        WHERE v.org = $1 AND v.v BETWEEN $2 AND $3 AND v.before + e.ord <= $4
        ORDER BY v.before + e.ord`,
      [spec.id, lo, hi, spec.events],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Derivation: link rollups, distinct values and session references (engagement-rollup.ts,
// engagement.repository.ts, events.service.ts), for every organization at once
// ---------------------------------------------------------------------------------------------

/** SQL list of the event types that are evidence of a stage mark (the service's STAGE_EVIDENCE table). */
function evidenceTypes(mark) {
  const { EVENT_TYPES, STAGE_EVIDENCE } = require(path.join(DIST, 'modules/custom-links/engagement/engagement-rollup'));
  return EVENT_TYPES.filter((type) => STAGE_EVIDENCE[type].includes(mark)).map((type) => `'${type}'`).join(', ');
}

/** addEvent's distinct sets: non-bot events only; a page view's id, its visitor or (without one) the ephemeral page view; sessions by kind. */
async function insertDistinctValues(db) {
  // Every distinct value of every link, in primary-key order.
  await db.query(
    `INSERT INTO link_distinct_values (organization_id, custom_link_id, kind, value)
     SELECT DISTINCT e.organization_id, e.custom_link_id, d.kind, d.value
       FROM link_events e
      CROSS JOIN LATERAL (VALUES
        ('page_view', CASE WHEN e.type = 'page_view' THEN nullif(e.page_view_id, '') END),
        ('visitor', CASE WHEN e.type = 'page_view' THEN nullif(e.visitor_id, '') END),
        ('ephemeral_page_view', CASE WHEN e.type = 'page_view' AND nullif(e.visitor_id, '') IS NULL THEN nullif(e.page_view_id, '') END),
        ('session', e.session_id::text),
        ('started_session', CASE WHEN e.type = 'session_started' THEN e.session_id::text END),
        ('engaged_session', CASE WHEN e.type = 'session_engaged' THEN e.session_id::text END)) AS d(kind, value)
      WHERE NOT e.bot AND d.value IS NOT NULL
      ORDER BY 1, 2, 3, 4`,
  );
}

/** Session references (events.service addSessionTimes): per (link, session) of non-bot events, the earliest time of each kind. */
async function insertLinkSessions(db) {
  // One reference per (link, session), in primary-key order.
  await db.query(
    `INSERT INTO link_sessions (organization_id, custom_link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at)
     SELECT organization_id, custom_link_id, session_id,
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('opened')})),
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('started')})),
            min(occurred_at) FILTER (WHERE type IN (${evidenceTypes('engaged')})),
            min(occurred_at) FILTER (WHERE type = 'session_ended'),
            min(occurred_at)
       FROM link_events WHERE session_id IS NOT NULL AND NOT bot
      GROUP BY organization_id, custom_link_id, session_id
      ORDER BY 1, 2, 3`,
  );
}

/**
 * Every link's rollup in one UPDATE (statsOf/storedFormOf/stageOf): bots only count as bot opens;
 * opens and loads mark the link opened; first times by STAGE_EVIDENCE; distinct counts from
 * link_distinct_values; last activity = latest non-bot event, ties by event id in byte order.
 */
async function updateLinkRollups(db) {
  const counts = { page_view: 'page_view_count', visitor: 'persistent_visitor_count', ephemeral_page_view: 'ephemeral_page_view_count',
    session: 'session_count', started_session: 'started_session_count', engaged_session: 'engaged_session_count' };
  // The rollup of every link with events, from the events (a), their distinct values (d) and the last activity (la).
  await db.query(
    `UPDATE custom_links l SET
       open_observed = a.open_observed, bot_open_count = a.bot_open_count, load_count = a.load_count,
       ${Object.values(counts).map((c) => `${c} = coalesce(d.${c}, 0)`).join(', ')},
       first_opened_at = a.first_opened_at, last_opened_at = a.last_opened_at, first_started_at = a.first_started_at, first_engaged_at = a.first_engaged_at,
       first_lead_submitted_at = a.first_lead_submitted_at, first_meeting_clicked_at = a.first_meeting_clicked_at,
       first_meeting_booked_at = a.first_meeting_booked_at,
       last_activity_at = la.occurred_at, last_activity_type = la.type, last_activity_event_id = la.event_id,
       stage = CASE WHEN a.first_engaged_at IS NOT NULL THEN 'engaged' WHEN a.first_started_at IS NOT NULL THEN 'started'
                    WHEN a.first_opened_at IS NOT NULL THEN 'opened' ELSE 'not_opened' END
     FROM (
       SELECT organization_id, custom_link_id,
              coalesce(bool_or(NOT bot AND type IN ('open', 'page_view')), false) AS open_observed,
              count(*) FILTER (WHERE bot AND type = 'open') AS bot_open_count,
              count(*) FILTER (WHERE NOT bot AND type = 'page_view') AS load_count,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('opened')})) AS first_opened_at,
              max(occurred_at) FILTER (WHERE NOT bot AND type IN ('open', 'page_view')) AS last_opened_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('started')})) AS first_started_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type IN (${evidenceTypes('engaged')})) AS first_engaged_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'lead_submitted') AS first_lead_submitted_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'meeting_clicked') AS first_meeting_clicked_at,
              min(occurred_at) FILTER (WHERE NOT bot AND type = 'meeting_booked') AS first_meeting_booked_at
         FROM link_events GROUP BY organization_id, custom_link_id) a
     LEFT JOIN (
       SELECT organization_id, custom_link_id, ${Object.entries(counts).map(([kind, c]) => `count(*) FILTER (WHERE kind = '${kind}') AS ${c}`).join(', ')}
         FROM link_distinct_values GROUP BY organization_id, custom_link_id) d
       ON d.organization_id = a.organization_id AND d.custom_link_id = a.custom_link_id
     LEFT JOIN (
       SELECT DISTINCT ON (organization_id, custom_link_id) organization_id, custom_link_id, occurred_at, type, event_id
         FROM link_events WHERE NOT bot ORDER BY organization_id, custom_link_id, occurred_at DESC, event_id COLLATE "C" DESC) la
       ON la.organization_id = a.organization_id AND la.custom_link_id = a.custom_link_id
     WHERE l.organization_id = a.organization_id AND l.id = a.custom_link_id`,
  );
}

// ---------------------------------------------------------------------------------------------
// Verification against the service's compiled rules
// ---------------------------------------------------------------------------------------------

const same = (a, b) => (a instanceof Date || b instanceof Date ? a?.getTime?.() === b?.getTime?.() : a === b);
const show = (value) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

/** Compares expected column values with a stored row; records every difference. */
function compareColumns(failures, what, expected, row) {
  for (const [column, value] of Object.entries(expected)) {
    const stored = row[column] instanceof Date || row[column] === null || typeof value !== 'number' ? row[column] : Number(row[column]);
    if (!same(value, stored)) failures.push(`${what}: ${column} stored ${show(stored)}, rules give ${show(value)}`);
  }
}

const pairsParam = (pairs) => [pairs.map((p) => p.org), pairs.map((p) => p.id)];
const IN_PAIRS = (orgColumn, idColumn) => `(${orgColumn}, ${idColumn}) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`;

const VERIFY_EVENT_BUDGET = 1_500_000;

/**
 * Links to verify: the hottest, some without events, some bot-only, random ones, and some of the
 * small organizations; at most VERIFY_EVENT_BUDGET events in all (they are loaded into memory).
 */
async function linkSample(db, specs) {
  const main = specs[0].id;
  // Events per link of the main organization, and whether they are all bot events.
  const { rows: perLink } = await db.query(
    `SELECT custom_link_id AS id, count(*)::int AS n, bool_and(bot) AS bot_only FROM link_events WHERE organization_id = $1 GROUP BY 1`, [main]);
  const eventCount = new Map(perLink.map((r) => [r.id, r.n]));
  const shuffled = (rows) => rows.map((r) => [Math.random(), r]).sort((x, y) => x[0] - y[0]).map(([, r]) => r);
  const hottest = [...perLink].sort((x, y) => y.n - x.n).slice(0, 15);
  const botOnly = shuffled(perLink.filter((r) => r.bot_only)).slice(0, 15);
  const { rows: random } = await db.query(`SELECT id FROM custom_links WHERE organization_id = $1 ORDER BY random() LIMIT 400`, [main]);
  const silent = random.filter((r) => !eventCount.has(r.id)).slice(0, 25);
  const { rows: small } = await db.query(`SELECT organization_id AS org, id FROM custom_links WHERE organization_id = ANY($1) ORDER BY random() LIMIT 30`, [specs.slice(1).map((s) => s.id)]);
  const unique = new Map();
  let events = 0;
  for (const link of [...hottest, ...silent, ...botOnly, ...random.slice(0, 300), ...small].map((r) => ({ org: r.org ?? main, id: r.id }))) {
    const n = link.org === main ? (eventCount.get(link.id) ?? 0) : 0;
    if (unique.has(`${link.org}/${link.id}`) || (events + n > VERIFY_EVENT_BUDGET && unique.size > 0)) continue;
    unique.set(`${link.org}/${link.id}`, link);
    events += n;
  }
  return { links: [...unique.values()], hottest: hottest.length, silent: silent.length, botOnly: botOnly.length };
}

/** What events.service.apply writes for these events (distinct values, session references), captured from a stand-in repository. */
async function whatEventsServiceWrites(org, events) {
  require('reflect-metadata');
  const { EventsService } = require(path.join(DIST, 'modules/custom-links/engagement/events.service'));
  const captured = { distinct: [], sessions: [] };
  const repository = {
    insertEvents: async (_tx, _org, batch) => new Set(batch.map((e) => e.eventId)),
    insertDistinct: async (_tx, _org, values) => {
      const counts = new Map();
      for (const value of values) {
        captured.distinct.push(value);
        counts.set(`${value.linkId}:${value.kind}`, (counts.get(`${value.linkId}:${value.kind}`) ?? 0) + 1);
      }
      return counts;
    },
    mergeSessions: async (_tx, _org, sessions) => {
      for (const session of sessions) captured.sessions.push(session);
    },
    lockLinks: async () => {},
    mergeStats: async () => {},
  };
  const service = new EventsService({ transaction: (work) => work({}) }, repository, { invalidate: async () => {} });
  if (events.length > 0) await service.apply(org, events);
  return captured;
}

async function verifyLinks(db, specs, failures) {
  const { statsOf, storedFormOf, stageOf } = require(path.join(DIST, 'modules/custom-links/engagement/engagement-rollup'));
  const sample = await linkSample(db, specs);
  const params = pairsParam(sample.links);
  const query = async (sql) => db.query(sql, params);
  const links = await query(`SELECT * FROM custom_links WHERE ${IN_PAIRS('organization_id', 'id')}`);
  const events = await query(`SELECT organization_id, custom_link_id, event_id, type, occurred_at, page_view_id, visitor_id, session_id, bot FROM link_events
                                WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const distinct = await query(`SELECT organization_id, custom_link_id, kind, value FROM link_distinct_values WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const sessions = await query(`SELECT * FROM link_sessions WHERE ${IN_PAIRS('organization_id', 'custom_link_id')}`);
  const eventsOf = new Map(sample.links.map((l) => [l.id, []]));
  for (const e of events.rows) {
    eventsOf.get(e.custom_link_id).push({ linkId: e.custom_link_id, eventId: e.event_id, type: e.type, occurredAt: e.occurred_at, pageViewId: e.page_view_id,
      visitorId: e.visitor_id, sessionId: e.session_id, bot: e.bot });
  }
  // Link columns against statsOf / storedFormOf / stageOf.
  for (const row of links.rows) {
    const stats = statsOf(eventsOf.get(row.id));
    const stored = storedFormOf(stats);
    compareColumns(failures, `link ${row.id}`, {
      open_observed: stored.openObserved, bot_open_count: stored.botOpenCount, load_count: stored.loadCount, page_view_count: stored.pageViewCount,
      persistent_visitor_count: stored.persistentUniqueVisitorCount, ephemeral_page_view_count: stored.ephemeralPageViewCount,
      session_count: stored.sessionCount, started_session_count: stored.startedSessionCount, engaged_session_count: stored.engagedSessionCount,
      first_opened_at: stored.firstOpenedAt, last_opened_at: stored.lastOpenedAt, first_started_at: stored.firstStartedAt, first_engaged_at: stored.firstEngagedAt,
      first_lead_submitted_at: stored.firstLeadSubmittedAt, first_meeting_clicked_at: stored.firstMeetingClickedAt, first_meeting_booked_at: stored.firstMeetingBookedAt,
      last_activity_at: stored.lastActivityAt, last_activity_type: stored.lastActivityType, last_activity_event_id: stats.lastActivity?.eventId ?? null,
      stage: stageOf(stored),
    }, row);
  }
  if (links.rows.length !== sample.links.length) failures.push(`links: ${sample.links.length} sampled, ${links.rows.length} found`);
  // Distinct values and session references against what events.service would write, per organization.
  let expectedDistinct = 0;
  let expectedSessions = 0;
  for (const org of new Set(sample.links.map((l) => l.org))) {
    const orgLinks = sample.links.filter((l) => l.org === org);
    const written = await whatEventsServiceWrites(org, orgLinks.flatMap((l) => eventsOf.get(l.id)));
    const want = new Set(written.distinct.map((v) => `${v.linkId}|${v.kind}|${v.value}`));
    const have = new Set(distinct.rows.filter((r) => r.organization_id === org).map((r) => `${r.custom_link_id}|${r.kind}|${r.value}`));
    for (const value of want) if (!have.has(value)) failures.push(`link_distinct_values missing ${value}`);
    for (const value of have) if (!want.has(value)) failures.push(`link_distinct_values extra ${value}`);
    expectedDistinct += want.size;
    const stored = new Map(sessions.rows.filter((r) => r.organization_id === org).map((r) => [`${r.custom_link_id}|${r.session_id}`, r]));
    for (const s of written.sessions) {
      const row = stored.get(`${s.linkId}|${s.sessionId}`);
      if (!row) failures.push(`link_sessions missing ${s.linkId}|${s.sessionId}`);
      else compareColumns(failures, `link_sessions ${s.linkId}|${s.sessionId}`, { opened_at: s.openedAt, started_at: s.startedAt, engaged_at: s.engagedAt, ended_at: s.endedAt, first_seen_at: s.firstSeenAt }, row);
    }
    if (stored.size !== written.sessions.length) failures.push(`link_sessions of org ${org}: ${stored.size} stored, ${written.sessions.length} expected`);
    expectedSessions += written.sessions.length;
  }
  log(`  verified ${links.rows.length} links (${sample.hottest} hottest, ${sample.silent} without events, ${sample.botOnly} bot-only, the rest random, ` +
    `${sample.links.filter((l) => l.org !== specs[0].id).length} of small organizations): ${events.rows.length} events, ${expectedDistinct} distinct values, ` +
    `${expectedSessions} session references, every rollup column`);
}

/** people columns written by a rollup (people.repository.ts ROLLUP_COLUMNS) from a PersonRollup. */
const personColumns = (r) => ({
  email_key: r.emailKey, name: r.name, phone: r.phone, business: r.business, total_sessions: r.totalSessions, booked_sessions: r.bookedSessions,
  first_seen_at: r.firstSeenAt, last_seen_at: r.lastSeenAt, total_time_spent_seconds: r.totalTimeSpentSeconds, first_source: r.firstSource,
  last_source: r.lastSource, last_location: r.lastLocation, qualification_status: r.qualification?.status ?? null,
  qualification_rationale: r.qualification?.rationale ?? null, qualification_source: r.qualification?.source ?? null,
  qualification_assessed_at: r.qualification?.assessedAt ?? null, qualification_rubric_version_id: r.qualification?.rubricVersionId ?? null,
  buying_intent: r.buyingIntent, account_domain: r.accountDomain, summary_markdown: r.summaryMarkdown, intent_score: r.intentScore,
  overall_intent: r.overallIntent, intent_calculated_at: r.intentCalculatedAt,
});

async function verifyPeople(db, specs, failures) {
  require('reflect-metadata');
  const { PeopleRepository } = require(path.join(DIST, 'modules/people/people.repository'));
  const { AccountsRepository } = require(path.join(DIST, 'modules/accounts/accounts.repository'));
  const { rollUpPerson } = require(path.join(DIST, 'modules/people/rules/person-rollup'));
  const { rollUpAccount } = require(path.join(DIST, 'modules/accounts/rules/account-rollup'));
  const tx = { query: async (sql, params) => (await db.query(sql, params)).rows };
  const peopleRepository = new PeopleRepository(undefined);
  const accountsRepository = new AccountsRepository(undefined);
  const main = specs[0].id;
  // The people with the most sessions, random ones, and some of the small organizations.
  const { rows: sample } = await db.query(
    `(SELECT * FROM people WHERE organization_id = $1 ORDER BY total_sessions DESC LIMIT 10)
     UNION (SELECT * FROM people WHERE organization_id = $1 ORDER BY random() LIMIT 210)
     UNION (SELECT * FROM people WHERE organization_id = ANY($2) ORDER BY random() LIMIT 30)`,
    [main, specs.slice(1).map((s) => s.id)],
  );
  let sessionsChecked = 0;
  let accountsChecked = 0;
  for (const org of new Set(sample.map((p) => p.organization_id))) {
    const people = sample.filter((p) => p.organization_id === org);
    const keys = people.map((p) => p.email_key);
    const facts = await peopleRepository.sessionFactsFor(tx, org, keys);
    const rollups = new Map();
    for (const person of people) {
      const sessions = facts.get(person.email_key);
      if (!sessions) {
        failures.push(`person ${person.id}: no visible sessions`);
        continue;
      }
      const rollup = rollUpPerson(person.email_key, sessions, person.intent_calculated_at);
      rollups.set(person.email_key, { person, rollup });
      compareColumns(failures, `person ${person.id}`, personColumns(rollup), person);
    }
    // Their sessions point at them with their effective qualification (visible ones) or at nobody with their own (others).
    const { rows: sessions } = await db.query(
      `SELECT id, email_key, person_id, effective_qualification_status, qualification_status, ${visibleOf('s')} AS visible
         FROM sessions s WHERE organization_id = $1 AND email_key = ANY($2)`,
      [org, keys],
    );
    for (const s of sessions) {
      const owner = rollups.get(s.email_key);
      if (!owner) continue;
      const want = s.visible ? { person_id: owner.person.id, effective_qualification_status: owner.rollup.qualification?.status ?? null }
        : { person_id: null, effective_qualification_status: s.qualification_status };
      compareColumns(failures, `session ${s.id}`, want, s);
      sessionsChecked += 1;
    }
    // Their accounts, from all the people of each domain.
    const domains = [...new Set([...rollups.values()].map((r) => r.rollup.accountDomain).filter(Boolean))];
    const peopleByDomain = await accountsRepository.peopleFactsFor(tx, org, domains);
    const { rows: accounts } = await db.query(`SELECT * FROM accounts WHERE organization_id = $1 AND account_domain = ANY($2)`, [org, domains]);
    const byDomain = new Map(accounts.map((a) => [a.account_domain, a]));
    for (const domain of domains) {
      const row = byDomain.get(domain);
      if (!row) {
        failures.push(`account ${domain}: missing`);
        continue;
      }
      const a = rollUpAccount(domain, peopleByDomain.get(domain));
      compareColumns(failures, `account ${domain}`, {
        company_name: a.companyName, total_users: a.totalUsers, total_sessions: a.totalSessions, booked_sessions: a.bookedSessions,
        high_intent_users: a.highIntentUsers, qualified_users: a.qualifiedUsers, total_time_spent_seconds: a.totalTimeSpentSeconds,
        last_seen_at: a.lastSeenAt, summary_markdown: a.summaryMarkdown,
      }, row);
      accountsChecked += 1;
    }
  }
  log(`  verified ${sample.length} people (10 with the most sessions, the rest random, ${sample.filter((p) => p.organization_id !== main).length} of small organizations), ` +
    `${sessionsChecked} of their sessions' person and effective qualification, ${accountsChecked} of their accounts`);
}

/** Whole-table invariants that are cheap to check in SQL. */
async function globalChecks(db, failures) {
  const checks = {
    'visible sessions with an email but no person': `SELECT count(*) FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL AND person_id IS NULL`,
    'other sessions with a person': `SELECT count(*) FROM sessions WHERE person_id IS NOT NULL AND NOT (${VISIBLE} AND email_key IS NOT NULL)`,
    'sessions pointing at a person of another email': `SELECT count(*) FROM sessions s JOIN people p ON p.organization_id = s.organization_id AND p.id = s.person_id WHERE p.email_key <> s.email_key`,
    'people without visible sessions': `SELECT count(*) FROM (SELECT organization_id, email_key FROM people
       EXCEPT SELECT organization_id, email_key FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL) x`,
    'accounts whose user count differs from their people': `SELECT count(*) FROM accounts a FULL JOIN (SELECT organization_id, account_domain, count(*) AS n FROM people
       WHERE account_domain IS NOT NULL GROUP BY 1, 2) p USING (organization_id, account_domain) WHERE a.total_users IS DISTINCT FROM p.n`,
    'links whose load count differs from their non-bot page views': `SELECT count(*) FROM custom_links l FULL JOIN (SELECT organization_id, custom_link_id AS id, count(*) AS n
       FROM link_events WHERE type = 'page_view' AND NOT bot GROUP BY 1, 2) e USING (organization_id, id) WHERE l.load_count IS DISTINCT FROM coalesce(e.n, 0)`,
  };
  for (const [name, sql] of Object.entries(checks)) {
    const { rows: [{ count }] } = await db.query(sql);
    if (Number(count) !== 0) failures.push(`${name}: ${count}`);
  }
  const visibleKeys = (await db.query(`SELECT count(DISTINCT (organization_id, email_key)) AS n FROM sessions WHERE ${VISIBLE} AND email_key IS NOT NULL`)).rows[0].n;
  const people = (await db.query(`SELECT count(*) AS n FROM people`)).rows[0].n;
  if (visibleKeys !== people) failures.push(`people: ${people} rows, ${visibleKeys} distinct visible email keys`);
  log(`  checked ${Object.keys(checks).length + 1} whole-table invariants (sessions ↔ people ↔ accounts, link load counts)`);
}

async function verify(db, specs) {
  const failures = [];
  await verifyLinks(db, specs, failures);
  await verifyPeople(db, specs, failures);
  await globalChecks(db, failures);
  if (failures.length > 0) {
    for (const failure of failures.slice(0, 40)) log(`  MISMATCH ${failure}`);
    throw new VerificationError(`${failures.length} mismatches between the dataset and the service's rules`);
  }
  log('  verification passed: no mismatch');
}

class VerificationError extends Error {}

// ---------------------------------------------------------------------------------------------
// Manifest: counts, samples for the runners
// ---------------------------------------------------------------------------------------------

async function countsOf(db, org) {
  const { rows: [c] } = await db.query(
    `SELECT (SELECT count(*) FROM sessions WHERE organization_id = $1 AND ${VISIBLE})::int AS sessions,
            (SELECT count(*) FROM people WHERE organization_id = $1)::int AS people,
            (SELECT count(*) FROM accounts WHERE organization_id = $1)::int AS accounts,
            (SELECT count(*) FROM custom_links WHERE organization_id = $1)::int AS links,
            (SELECT count(*) FROM campaigns WHERE organization_id = $1)::int AS campaigns,
            (SELECT count(*) FROM link_events WHERE organization_id = $1)::int AS events,
            (SELECT count(*) FROM session_transcripts WHERE organization_id = $1)::int AS transcripts`,
    [org],
  );
  return c;
}

/** Substrings a user would type into the email filter (a name, "@company", "lastname@", a domain part), each matching a visible session. */
async function emailSubstrings(db, org, wanted) {
  const { rows } = await db.query(`SELECT email_key FROM sessions WHERE organization_id = $1 AND ${VISIBLE} AND email_key IS NOT NULL ORDER BY random() LIMIT $2`, [org, wanted * 3]);
  const substrings = new Set();
  rows.forEach(({ email_key: email }, i) => {
    const [local, host] = email.split('@');
    const parts = local.split(/[._]/).filter((part) => part.length >= 3);
    const candidates = [
      local,
      `@${host.split('.')[0]}`,
      parts.length > 0 ? `${parts[parts.length - 1]}@` : local.slice(-4) + '@',
      local.slice(0, 5),
      host.slice(0, Math.max(4, host.lastIndexOf('.'))),
    ];
    const candidate = candidates[i % candidates.length];
    if (candidate.length >= 3) substrings.add(candidate);
  });
  const verified = [];
  for (const substring of substrings) {
    if (verified.length >= wanted) break;
    // Each one matches at least one visible session (the service's filter: email_key LIKE %…%).
    const { rows: match } = await db.query(
      `SELECT 1 FROM sessions WHERE organization_id = $1 AND ${VISIBLE} AND email_key LIKE $2 ESCAPE '\\' LIMIT 1`,
      [org, `%${substring.replace(/[\\%_]/g, (c) => `\\${c}`)}%`],
    );
    if (match.length > 0) verified.push(substring);
  }
  return verified;
}

async function sampleFor(db, spec, largeCampaignId) {
  const column = async (sql) => (await db.query(sql, [spec.id])).rows.map((r) => Object.values(r)[0]);
  return {
    sessionIds: await column(`SELECT id FROM sessions WHERE organization_id = $1 AND ${VISIBLE} ORDER BY random() LIMIT 20`),
    transcriptSessionIds: await column(`SELECT session_id FROM session_transcripts WHERE organization_id = $1 ORDER BY random() LIMIT 20`),
    personIds: await column(`SELECT id FROM people WHERE organization_id = $1 ORDER BY random() LIMIT 20`),
    accountDomains: await column(`SELECT account_domain FROM accounts WHERE organization_id = $1 ORDER BY random() LIMIT 20`),
    emailSubstrings: await emailSubstrings(db, spec.id, 50),
    largeCampaignId,
    campaignIds: await column(`SELECT id FROM campaigns WHERE organization_id = $1 ORDER BY created_at, id`),
    linkIds: await column(`SELECT id FROM custom_links WHERE organization_id = $1 AND active ORDER BY random() LIMIT 1000`),
  };
}

async function storeManifest(admin, manifest, file) {
  // The manifest travels with the database (reuse needs no file), and is written for the runners.
  const { rows: [{ sql }] } = await admin.query(`SELECT format('COMMENT ON DATABASE %I IS %L', $1::text, $2::text) AS sql`, [manifest.database, JSON.stringify(manifest)]);
  await admin.query(sql);
  writeManifestFile(manifest, file);
}

function writeManifestFile(manifest, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`manifest written to ${path.relative(process.cwd(), file) || file}`);
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const flagsKey = (flags) => JSON.stringify(Object.keys(DEFAULTS).map((name) => flags[name]));

/** Reuses the database when its stored manifest was built with these flags; returns true when it did. */
async function reuse(admin, flags, manifestFile) {
  const stored = await storedManifest(admin, flags.database);
  if (!stored || flagsKey(stored.flags) !== flagsKey(flags)) return false;
  const url = databaseUrl(flags.database);
  const intact = await withClient(url, async (db) => (await db.query(`SELECT 1 FROM organizations WHERE id = $1`, [stored.organizationId])).rowCount === 1).catch(() => false);
  if (!intact) return false;
  // Migrations added since the build (no-op when none).
  await runMigrations(url);
  writeManifestFile({ ...stored, databaseUrl: url }, manifestFile);
  log(`database ${flags.database} already matches the flags (built ${stored.builtAt}); reused (--rebuild to rebuild)`);
  return true;
}

async function sessionSettings(db, seed) {
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET jit = off`);
  await db.query(`SET work_mem = '512MB'`);
  await db.query(`SET maintenance_work_mem = '1GB'`);
  await db.query(`SET timezone = 'UTC'`);
  await db.query(`SELECT setseed($1)`, [seed]);
}

/** Two connections with the build's session settings (the machine has two cores: independent work runs side by side). */
async function connectPair(url) {
  const pair = [new Client({ connectionString: url }), new Client({ connectionString: url })];
  for (const [i, db] of pair.entries()) {
    await db.connect();
    await sessionSettings(db, 0.2026 + i / 10);
    if (process.env.BENCH_DATA_TRACE) traceStatements(db, i === 0 ? 'A' : 'B');
  }
  return pair;
}

/** BENCH_DATA_TRACE=1: logs every statement that takes over a second, with its first line. */
function traceStatements(db, label) {
  const query = db.query.bind(db);
  db.query = async (...args) => {
    const t0 = Date.now();
    const result = await query(...args);
    const text = typeof args[0] === 'string' ? args[0] : args[0].text;
    if (Date.now() - t0 > 1000) log(`  [${label}] ${((Date.now() - t0) / 1000).toFixed(1)} s: ${text.trim().split('\n')[0].slice(0, 110)}`);
    return result;
  };
}

async function build(admin, flags, manifestFile) {
  const url = databaseUrl(flags.database);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  await phase('database and migrations', async () => {
    await recreateDatabase(admin, flags.database);
    await runMigrations(url);
  });
  const { main, small, apiKey } = await phase('organizations and API key (project CLI)', async () => {
    const orgs = await Promise.all([cli(url, 'org:create', '--name', 'Bench main'),
      ...Array.from({ length: flags.smallOrgs }, (_, k) => cli(url, 'org:create', '--name', `Bench small ${k + 1}`))]);
    const key = await cli(url, 'key:create', '--org', orgs[0].id, '--scopes', MAIN_SCOPES, '--name', 'bench');
    return { main: orgs[0].id, small: orgs.slice(1).map((o) => o.id), apiKey: key.key };
  });
  const specs = organizationSpecs(flags, main, small);
  if (specs[0].people < flags.people) log(`note: ~8 % of sessions are anonymous, so at most ${specs[0].people} people (not ${flags.people})`);
  const [a, b] = await connectPair(url);
  try {
    await phase('work tables, companies and prospects', async () => {
      await createWorkTables(a);
      const pool = await loadCompanies(a, Math.max(flags.accounts, ...specs.map((s) => s.companies)));
      for (const spec of specs) await generateProspects(a, spec, pool);
      await a.query(`ANALYZE bench_gen.companies, bench_gen.hosts, bench_gen.prospects`);
    });
    const largeCampaigns = new Map();
    await phase('campaigns, link jobs and links', async () => {
      for (const spec of specs) {
        const campaigns = await generateCampaigns(a, spec, now);
        largeCampaigns.set(spec.id, campaigns[0].id);
        await planLinks(a, spec, campaigns, now);
        await insertLinks(a, spec);
      }
      await a.query(`ANALYZE bench_gen.links_plan, bench_gen.prospect_links, custom_links`);
    });
    await phase('sessions stage (two connections)', async () => {
      const chunks = specs.flatMap((spec) => {
        const total = spec.sessions + spec.extraSessions;
        return Array.from({ length: Math.ceil(total / 100_000) }, (_, i) => ({ spec, lo: i * 100_000 + 1, hi: Math.min(total, (i + 1) * 100_000) }));
      });
      let done = 0;
      const worker = async (db, mine) => {
        for (const { spec, lo, hi } of mine) {
          await stageSessions(db, spec, now, lo, hi);
          done += hi - lo + 1;
          if (spec === specs[0] && hi % 200_000 === 0) log(`  staged ${done} sessions`);
        }
      };
      await Promise.all([worker(a, chunks.filter((_, i) => i % 2 === 0)), worker(b, chunks.filter((_, i) => i % 2 === 1))]);
      await a.query(`CREATE INDEX ON bench_gen.sessions_stage (organization_id, start_time)`);
      await a.query(`ANALYZE bench_gen.sessions_stage`);
    });
    log('two branches run side by side now: [A] people, accounts, sessions, transcripts; [B] link visits, events, distinct values, session references');
    await Promise.all([
      (async () => {
        await phase('[A] people: SQL aggregates', () => stagePeople(a));
        await phase('[A] people: intent scores (intent.ts, streamed)', () => computeIntent(a, now));
        await phase('[A] people and accounts', async () => {
          await insertPeople(a, now);
          await a.query(`ANALYZE people`);
          await insertAccounts(a);
        });
        await phase('[A] sessions (100k rows per statement)', async () => {
          for (const spec of specs) await insertSessions(a, spec);
        });
        await phase('[A] transcripts', async () => {
          for (const spec of specs) await insertTranscripts(a, spec);
        });
      })(),
      (async () => {
        await phase('[B] link visits', async () => {
          for (const spec of specs) await planVisits(b, spec, now);
          await numberVisits(b);
        });
        await phase('[B] link events', async () => {
          for (const spec of specs) await insertEvents(b, spec);
          await b.query(`ANALYZE link_events`);
        });
        await phase('[B] link distinct values', async () => {
          await insertDistinctValues(b);
          await b.query(`ANALYZE link_distinct_values`);
        });
        await phase('[B] link session references', () => insertLinkSessions(b));
      })(),
    ]);
    await phase('link rollups (one UPDATE of custom_links)', () => updateLinkRollups(a));
    await phase('drop work tables, VACUUM ANALYZE (two connections)', async () => {
      await a.query(`DROP SCHEMA bench_gen CASCADE`);
      const vacuum = async (db, tables) => {
        for (const table of tables) await db.query(`VACUUM ANALYZE ${table}`);
      };
      await Promise.all([
        vacuum(a, ['sessions', 'session_emails', 'session_transcripts', 'people', 'accounts', 'campaigns', 'custom_link_jobs', 'custom_link_job_items']),
        vacuum(b, ['link_events', 'link_distinct_values', 'link_sessions', 'custom_links']),
      ]);
    });
    await phase('verification (service rules, compiled)', () => verify(a, specs));
    const manifest = await phase('manifest', async () => {
      const counts = await countsOf(a, main);
      log(`  main organization: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
      const databaseBytes = Number((await a.query(`SELECT pg_database_size(current_database()) AS bytes`)).rows[0].bytes);
      log(`  database size ${(databaseBytes / 2 ** 30).toFixed(2)} GiB`);
      return {
        database: flags.database, databaseUrl: url, builtAt: new Date().toISOString(), buildSeconds: Math.round((Date.now() - started) / 1000),
        generatorVersion: GENERATOR_VERSION, now, flags, organizationId: main, apiKey, smallOrganizationIds: small, counts, databaseBytes,
        eventIdFormat: "'ev-' + 9-digit zero-padded number, unique per organization",
        sample: await sampleFor(a, specs[0], largeCampaigns.get(main)),
      };
    });
    manifest.buildSeconds = Math.round((Date.now() - started) / 1000);
    await storeManifest(admin, manifest, manifestFile);
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
}

async function main() {
  const { flags, rebuild, manifest } = parseFlags(process.argv.slice(2));
  assertJsonSafeVocabulary();
  if (!fs.existsSync(path.join(DIST, 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first (or `npm run bench:data`)');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    if (!rebuild && (await reuse(admin, flags, manifest))) return;
    await build(admin, flags, manifest);
  } finally {
    await admin.end();
    console.error('\nphase timings:');
    for (const { phase: name, seconds } of timings) console.error(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
    console.error(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s  total`);
  }
}

main().catch((error) => {
  console.error(error instanceof VerificationError ? `verification failed: ${error.message}` : error);
  process.exit(1);
});
