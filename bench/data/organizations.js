// What each organization gets (sizes of the main organization, the tenant and the small ones), and
// their creation with the API keys of the main organization and the tenant through the project CLI.
'use strict';
const { cli } = require('./database');

/**
 * @typedef {object} OrganizationSpec  What one organization gets.
 * @property {string} id
 * @property {string} label  'main', 'tenant' or 'small <n>'.
 * @property {number} sessions  Visible sessions.
 * @property {number} extraSessions  Staging and pending ones besides.
 * @property {number} people
 * @property {number} companies
 * @property {number} companyOffset  Where its companies start in the shared company pool.
 * @property {number} links
 * @property {number} campaigns
 * @property {number} largeCampaign  Links in its first (large) campaign.
 * @property {number} events
 * @property {number} transcripts
 */

/** @typedef {{ main: string, tenant: string | null, small: string[] }} OrganizationIds */

const MAIN_SCOPES =
  'sessions:read,sessions:write,people:read,accounts:read,analytics:read,transcripts:read,custom_links:write,events:write,playbook:read';

/**
 * Sizes per organization: the main one from the flags; the tenant, a smaller organization beside it
 * shaped like the main one at the default size (per session: 0.3 people, 0.05 accounts, 0.2 links,
 * 5 events); the small ones scaled from --small-sessions. The main organization comes first.
 * @param {import('./cli-options').Flags} flags
 * @param {OrganizationIds} ids
 * @returns {OrganizationSpec[]}
 */
function organizationSpecs(flags, ids) {
  /** @type {OrganizationSpec} */
  const main = {
    id: ids.main,
    label: 'main',
    sessions: flags.sessions,
    extraSessions: Math.round(flags.sessions * 0.02),
    people: Math.min(flags.people, Math.floor(flags.sessions * 0.92)),
    companies: flags.accounts,
    companyOffset: 0,
    links: flags.links,
    campaigns: flags.campaigns,
    largeCampaign: Math.min(flags.largeCampaign, flags.links),
    events: flags.events,
    transcripts: Math.round(flags.sessions * flags.transcripts),
  };
  const tenant = ids.tenant && tenantSpec(ids.tenant, flags);
  const small = ids.small.map((id, k) => {
    const sessions = flags.smallSessions;
    const people = Math.max(1, Math.min(Math.round(sessions * 0.35), Math.floor(sessions * 0.92)));
    const links = Math.max(5, Math.round(sessions / 20));
    return {
      id,
      label: `small ${k + 1}`,
      sessions,
      extraSessions: Math.round(sessions * 0.02),
      people,
      companies: Math.max(1, Math.round(people / 5)),
      companyOffset: ((k + 1) * 7919) % Math.max(1, flags.accounts),
      links,
      campaigns: 2,
      largeCampaign: Math.ceil(links / 2),
      events: links * 25,
      transcripts: Math.round(sessions * flags.transcripts),
    };
  });
  return withSessions([main, ...(tenant ? [tenant] : []), ...small]);
}

/**
 * @param {string} id
 * @param {import('./cli-options').Flags} flags
 * @returns {OrganizationSpec}
 */
function tenantSpec(id, flags) {
  const sessions = flags.tenantSessions;
  const links = Math.max(5, Math.round(sessions * 0.2));
  return {
    id,
    label: 'tenant',
    sessions,
    extraSessions: Math.round(sessions * 0.02),
    people: Math.max(1, Math.floor(sessions * 0.3)),
    companies: Math.max(1, Math.round(sessions * 0.05)),
    companyOffset: Math.floor(flags.accounts / 2),
    links,
    campaigns: 4,
    largeCampaign: Math.ceil(links / 4),
    events: sessions * 5,
    transcripts: Math.round(sessions * flags.transcripts),
  };
}

/** @param {OrganizationSpec[]} specs */
const withSessions = (specs) => specs.filter((spec) => spec.sessions > 0);

/**
 * Link-only prospects (links for people who never had a session): about 30 % of the links.
 * @param {OrganizationSpec} spec
 */
const linkOnlyProspects = (spec) => Math.ceil(spec.links * 0.32) + 1;

/**
 * The organizations and the API keys of the main one and the tenant (project CLI); tenant and its key are null without tenant sessions.
 * @param {string} url
 * @param {import('./cli-options').Flags} flags
 * @returns {Promise<{ ids: OrganizationIds, apiKey: string, tenantApiKey: string | null }>}
 */
async function createOrganizations(url, flags) {
  /** @param {string} name @returns {Promise<{ id: string }>} */
  const create = (name) => cli(url, 'org:create', '--name', name);
  /** @param {string} org @returns {Promise<string>} */
  const key = async (org) =>
    (await cli(url, 'key:create', '--org', org, '--scopes', MAIN_SCOPES, '--name', 'bench')).key;
  const [main, tenant, ...small] = await Promise.all([
    create('Bench main'),
    flags.tenantSessions > 0 ? create('Bench tenant') : null,
    ...Array.from({ length: flags.smallOrgs }, (_, k) => create(`Bench small ${k + 1}`)),
  ]);
  const [apiKey, tenantApiKey] = await Promise.all([key(main.id), tenant ? key(tenant.id) : null]);
  return { ids: { main: main.id, tenant: tenant?.id ?? null, small: small.map((o) => o.id) }, apiKey, tenantApiKey };
}

module.exports = { organizationSpecs, linkOnlyProspects, createOrganizations };
