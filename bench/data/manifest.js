// Manifest: counts, samples for the runners; stored with the database and written to a file.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { log } = require('./log');
const { VISIBLE } = require('./sql');

/** @typedef {import('pg').Client} Client */

/**
 * @typedef {object} Counts  Rows of one organization (sessions: visible ones).
 * @property {number} sessions
 * @property {number} people
 * @property {number} accounts
 * @property {number} links
 * @property {number} campaigns
 * @property {number} events
 * @property {number} transcripts
 */

/**
 * @typedef {object} Sample  Ids and values the runners' requests pick from (main organization).
 * @property {string[]} sessionIds
 * @property {string[]} transcriptSessionIds
 * @property {string[]} personIds
 * @property {string[]} accountDomains
 * @property {string[]} emailSubstrings
 * @property {string} largeCampaignId
 * @property {string[]} campaignIds
 * @property {string[]} linkIds
 * @property {string[]} [slugs]  The active sample links' slugs (the runner reads them from the database).
 */

/**
 * @typedef {object} TenantManifest  The tenant beside the main organization, as the runners read it.
 * @property {string} organizationId
 * @property {string} apiKey
 * @property {Counts} counts
 * @property {{ emailSubstrings: string[] }} sample
 */

/**
 * @typedef {object} Manifest  The dataset: stored with its database (COMMENT ON DATABASE) and written
 *   to a file for the runners (bench/run/options.js readManifest checks what they need of it).
 * @property {string} database
 * @property {string} databaseUrl
 * @property {string} builtAt
 * @property {number} buildSeconds
 * @property {number} generatorVersion
 * @property {string} now  The build's "now": every generated time is relative to it.
 * @property {import('./cli-options').Flags} flags
 * @property {number} scale
 * @property {string} organizationId
 * @property {string} apiKey
 * @property {string[]} smallOrganizationIds
 * @property {Counts} counts
 * @property {number} databaseBytes
 * @property {string} eventIdFormat
 * @property {Sample} sample
 * @property {TenantManifest | null} tenant
 * @property {Awaited<ReturnType<typeof import('./resources').buildResources>>} buildResources
 * @property {Record<string, number>} [phaseSeconds]
 */

/**
 * @param {Client} db
 * @param {string} org
 * @returns {Promise<Counts>}
 */
async function countsOf(db, org) {
  const {
    rows: [c],
  } = await db.query(
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

/**
 * Substrings a user would type into the email filter (a name, "@company", "lastname@", a domain part), each matching a visible session.
 * @param {Client} db
 * @param {string} org
 * @param {number} wanted
 * @returns {Promise<string[]>}
 */
async function emailSubstrings(db, org, wanted) {
  const { rows } = await db.query(
    `SELECT email_key FROM sessions WHERE organization_id = $1 AND ${VISIBLE} AND email_key IS NOT NULL ORDER BY random() LIMIT $2`,
    [org, wanted * 3],
  );
  /** @type {Set<string>} */
  const substrings = new Set();
  /** @type {{ email_key: string }[]} */
  const emails = rows;
  emails.forEach(({ email_key: email }, i) => {
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

/**
 * @param {Client} db
 * @param {import('./organizations').OrganizationSpec} spec
 * @param {string} largeCampaignId
 * @returns {Promise<Sample>}
 */
async function sampleFor(db, spec, largeCampaignId) {
  /** @param {string} sql @returns {Promise<string[]>} */
  const column = async (sql) => (await db.query(sql, [spec.id])).rows.map((r) => Object.values(r)[0]);
  return {
    sessionIds: await column(
      `SELECT id FROM sessions WHERE organization_id = $1 AND ${VISIBLE} ORDER BY random() LIMIT 20`,
    ),
    transcriptSessionIds: await column(
      `SELECT session_id FROM session_transcripts WHERE organization_id = $1 ORDER BY random() LIMIT 20`,
    ),
    personIds: await column(`SELECT id FROM people WHERE organization_id = $1 ORDER BY random() LIMIT 20`),
    accountDomains: await column(
      `SELECT account_domain FROM accounts WHERE organization_id = $1 ORDER BY random() LIMIT 20`,
    ),
    emailSubstrings: await emailSubstrings(db, spec.id, 50),
    largeCampaignId,
    campaignIds: await column(`SELECT id FROM campaigns WHERE organization_id = $1 ORDER BY created_at, id`),
    linkIds: await column(
      `SELECT id FROM custom_links WHERE organization_id = $1 AND active ORDER BY random() LIMIT 1000`,
    ),
  };
}

/**
 * The tenant as the runners read it: its organization, API key, counts and email substrings (chosen as the main organization's are).
 * @param {Client} db
 * @param {import('./organizations').OrganizationSpec} spec
 * @param {string} apiKey
 * @returns {Promise<TenantManifest>}
 */
async function tenantManifest(db, spec, apiKey) {
  return {
    organizationId: spec.id,
    apiKey,
    counts: await countsOf(db, spec.id),
    sample: { emailSubstrings: await emailSubstrings(db, spec.id, 50) },
  };
}

/**
 * @param {Client} admin
 * @param {Manifest} manifest
 * @param {string} file
 */
async function storeManifest(admin, manifest, file) {
  // The manifest travels with the database (reuse needs no file), and is written for the runners.
  const {
    rows: [{ sql }],
  } = await admin.query(`SELECT format('COMMENT ON DATABASE %I IS %L', $1::text, $2::text) AS sql`, [
    manifest.database,
    JSON.stringify(manifest),
  ]);
  await admin.query(sql);
  writeManifestFile(manifest, file);
}

/**
 * @param {Manifest} manifest
 * @param {string} file
 */
function writeManifestFile(manifest, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`manifest written to ${path.relative(process.cwd(), file) || file}`);
}

module.exports = { countsOf, sampleFor, tenantManifest, storeManifest, writeManifestFile };
