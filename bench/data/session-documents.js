// The JSON documents of a staged session (tracking and details), built as SQL text.
'use strict';
const { VOCAB } = require('./vocabulary');

// JSON documents are built as text and cast once: much cheaper than nested jsonb_build_object
// for a million rows. Values are SQL expressions rendered as JSON text; vocabulary strings contain
// no quote or backslash (checked at start-up), so they are quoted without escaping.
/** @param {string} expr */
const jStr = (expr) => `coalesce('"' || (${expr}) || '"', 'null')`;
/** @param {string} expr */
const jNum = (expr) => `coalesce((${expr})::text, 'null')`;
/** @param {string} arrayExpr */
const jStrings = (arrayExpr) => `('["' || array_to_string(${arrayExpr}, '", "') || '"]')`;
/**
 * SQL text of a JSON object from [key, SQL JSON-text expression] pairs.
 * @param {Record<string, string>} fields
 */
const jObject = (fields) =>
  `concat('{', ${Object.entries(fields)
    .map(([key, value], i) => `'${i > 0 ? ', ' : ''}"${key}": ', ${value}`)
    .join(', ')}, '}')`;
/**
 * SQL text of a JSON array of items, each with an optional SQL condition.
 * @param {[value: string, condition?: string][]} items
 */
const jArray = (items) =>
  `('[' || concat_ws(', ', ${items.map(([value, condition]) => (condition ? `CASE WHEN ${condition} THEN ${value} END` : value)).join(', ')}) || ']')`;

function assertJsonSafeVocabulary() {
  for (const [name, list] of Object.entries(VOCAB)) {
    for (const value of list)
      // eslint-disable-next-line no-control-regex -- the characters JSON text must escape
      if (value !== null && /["\\\u0000-\u001f]/.test(value))
        throw new Error(`vocabulary ${name} has a value that needs JSON escaping: ${value}`);
  }
}

/**
 * The two features a session is about (SQL): m.fi, and another one chosen by x.r_f2 (summary, timeline, topics).
 * @param {import('./sql').Params} p
 */
function featurePair(p) {
  const NF = VOCAB.features.length;
  const f1 = p.at('features', 'm.fi');
  const f2 = p.at('features', `1 + (m.fi + floor(x.r_f2 * ${NF - 1})::int) % ${NF}`);
  return { f1, f2 };
}

/**
 * The tracking document (session-record.ts trackingOf: every TRACKING_FIELDS key, null when unknown).
 * @param {import('./sql').Params} p
 */
function trackingJson(p) {
  return `(${jObject({
    utmSource: jStr('tr.utm_source'),
    utmMedium: jStr('tr.utm_medium'),
    utmCampaign: jStr(
      `CASE WHEN b.via_link THEN 'custom-link' WHEN tr.utm_source IS NOT NULL THEN ${p.pick('utm_campaigns', 'x.r_camp')} END`,
    ),
    utmTerm: jStr(`CASE WHEN tr.utm_medium = 'cpc' THEN ${p.pick('utm_terms', 'x.r_term')} END`),
    utmContent: jStr(
      `CASE WHEN tr.utm_medium IN ('cpc', 'paid_social') THEN ${p.pick('utm_contents', 'x.r_cont')} END`,
    ),
    referrerUrl:
      jStr(`CASE tr.utm_source WHEN 'google' THEN 'https://www.google.com/' WHEN 'bing' THEN 'https://www.bing.com/'
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

/**
 * The details document (session-record.ts SessionDetails) of a session: qualification context, next steps, timeline, topics, objections.
 * @param {import('./sql').Params} p
 */
function detailsJson(p) {
  const { f1, f2 } = featurePair(p);
  /**
   * @param {string} type
   * @param {string} description
   * @param {string} offset
   * @param {string} features
   * @param {number} order
   */
  const milestone = (type, description, offset, features, order) =>
    jObject({
      milestoneType: `'"${type}"'`,
      description,
      timestampOffsetS: offset,
      featuresMentioned: features,
      sequenceOrder: `'${order}'`,
    });
  return `(${jObject({
    qualificationReason: jStr(
      `CASE q.status WHEN 'qualified' THEN ${p.pick('qualified_reasons', 'x.r_x1')} WHEN 'unqualified' THEN ${p.pick('unqualified_reasons', 'x.r_x1')} END`,
    ),
    qualificationStage: jStr(`CASE WHEN q.status IS NOT NULL THEN ${p.pick('stages', 'x.r_x2')} END`),
    budgetRange: jStr(`CASE WHEN q.status = 'qualified' OR x.r_x3 < 0.1 THEN ${p.pick('budgets', 'x.r_x4')} END`),
    buyingTimeline: jStr(`CASE WHEN b.intent IN ('high', 'medium') THEN ${p.pick('timelines', 'x.r_x4')} END`),
    decisionMakerRole: jStr(p.pick('decision_roles', 'x.r_x5')),
    isDecisionMaker: jNum('CASE WHEN x.r_x6 < 0.1 THEN NULL ELSE x.r_x6 > 0.65 END'),
    confidenceScore: jNum('round((0.35 + 0.63 * x.r_x7)::numeric, 2)'),
    nextSteps: jStrings(
      `(${p.list('next_steps')} || ${p.list('next_steps')})[m.ni + 1 : m.ni + 1 + floor(x.r_x3 * 3)::int]`,
    ),
    summaryBullets: jStrings(
      `(${p.list('bullets')} || ${p.list('bullets')})[m.bi + 1 : m.bi + 2 + (x.r_x2 < 0.5)::int]`,
    ),
    audioDurationSeconds: jNum(`CASE WHEN b.session_type <> 'guided_tour' THEN b.dur_s END`),
    timelineEvents: jArray([
      [milestone('intro', `'"Introductions"'`, `'0'`, `'[]'`, 1)],
      [
        milestone(
          'discovery',
          `'"Discovery: current process and team size"'`,
          jNum('round(b.dur_s * 0.15)::int'),
          `'[]'`,
          2,
        ),
      ],
      [
        milestone(
          'demo',
          jStr(`'Demo of ' || ${f1}`),
          jNum('round(b.dur_s * 0.35)::int'),
          `('["' || ${f1} || '", "' || ${f2} || '"]')`,
          3,
        ),
      ],
      [
        milestone('pricing', `'"Pricing discussion"'`, jNum('round(b.dur_s * 0.7)::int'), `'["pricing tiers"]'`, 4),
        `b.intent IN ('high', 'medium')`,
      ],
    ]),
    topics: jArray([
      [
        jObject({
          topic: jStr(f1),
          interestLevel: jStr(p.pick('interest_levels', 'x.r_x5')),
          timeDiscussedS: jNum('round(b.dur_s * 0.3)::int'),
          outcome: jStr(p.pick('outcomes', 'x.r_x8')),
        }),
      ],
      [
        jObject({
          topic: jStr(f2),
          interestLevel: jStr(p.pick('interest_levels', 'x.r_x6')),
          timeDiscussedS: jNum('round(b.dur_s * 0.15)::int'),
          outcome: jStr(p.pick('outcomes', 'x.r_x7')),
        }),
        'x.r_x4 < 0.6',
      ],
    ]),
    objections: jArray([
      [
        jObject({
          objectionType: jStr(p.at('objection_types', 'm.oi')),
          description: jStr(p.at('objection_texts', 'm.oi')),
          severity: jStr(p.pick('severities', 'x.r_x7')),
          handled: jNum('x.r_x6 < 0.7'),
          resolutionNotes: jStr(`CASE WHEN x.r_x6 < 0.7 THEN ${p.pick('resolutions', 'x.r_x1')} END`),
          timestampOffsetS: jNum('round(b.dur_s * 0.6)::int'),
        }),
        'x.r_x8 >= 0.55',
      ],
    ]),
  })})::jsonb`;
}

module.exports = { assertJsonSafeVocabulary, trackingJson, detailsJson, featurePair };
