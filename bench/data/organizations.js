// What each organization gets (sizes of the main and the small organizations), and their creation
// with the main one's API key through the project CLI.
'use strict';
const { cli } = require('./database');

const MAIN_SCOPES = 'sessions:read,sessions:write,people:read,accounts:read,analytics:read,transcripts:read,custom_links:write,events:write,playbook:read';

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

/** The main and the small organizations, and the main one's API key (project CLI). */
async function createOrganizations(url, flags) {
  const orgs = await Promise.all([cli(url, 'org:create', '--name', 'Bench main'),
    ...Array.from({ length: flags.smallOrgs }, (_, k) => cli(url, 'org:create', '--name', `Bench small ${k + 1}`))]);
  const key = await cli(url, 'key:create', '--org', orgs[0].id, '--scopes', MAIN_SCOPES, '--name', 'bench');
  return { main: orgs[0].id, small: orgs.slice(1).map((o) => o.id), apiKey: key.key };
}

module.exports = { organizationSpecs, linkOnlyProspects, createOrganizations };
