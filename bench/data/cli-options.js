// Flags: defaults, --scale, parsing and validation, the default manifest path, the flags key a reused database must match.
'use strict';
const { parseArgs } = require('node:util');
const path = require('node:path');
const { ROOT } = require('./constants');

/** @typedef {typeof DEFAULTS} Flags  The dataset's sizes and database name. */

const DEFAULTS = {
  sessions: 1_000_000,
  people: 300_000,
  accounts: 50_000,
  links: 200_000,
  campaigns: 20,
  largeCampaign: 50_000,
  events: 5_000_000,
  transcripts: 0.01,
  smallOrgs: 9,
  smallSessions: 2000,
  tenantSessions: 100_000,
  database: 'engagement_bench',
};
const NAMES = /** @type {(keyof Flags)[]} */ (Object.keys(DEFAULTS));

/**
 * The main organization at --scale N: N times the sessions, people, accounts, links and campaigns
 * (campaigns keep their size; the large one stays 50,000 links), and events growing by a third of
 * the step (5 M at 1, 20 M at 10, the sizes): events per link fall as an organization grows.
 * The tenant and the small organizations do not scale. Explicit flags win over these.
 * @param {number} scale
 * @returns {Flags}
 */
function scaled(scale) {
  if (scale === 1) return DEFAULTS;
  return {
    ...DEFAULTS,
    sessions: DEFAULTS.sessions * scale,
    people: DEFAULTS.people * scale,
    accounts: DEFAULTS.accounts * scale,
    links: DEFAULTS.links * scale,
    campaigns: DEFAULTS.campaigns * scale,
    events: Math.round((DEFAULTS.events * (scale + 2)) / 3),
    database: `${DEFAULTS.database}_x${scale}`,
  };
}

/**
 * The command-line name of a flag: largeCampaign → large-campaign.
 * @param {string} name
 */
const optionName = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** @param {string[]} argv */
function parseFlags(argv) {
  /** @type {import('node:util').ParseArgsOptionsConfig} */
  const options = { rebuild: { type: 'boolean' }, manifest: { type: 'string' }, scale: { type: 'string' } };
  for (const name of NAMES) options[optionName(name)] = { type: 'string' };
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  const scale = Number(values.scale ?? 1);
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`--scale: invalid value ${values.scale}`);
  const flags = { ...scaled(scale) };
  for (const name of NAMES) {
    const raw = values[optionName(name)];
    if (typeof raw !== 'string') continue;
    if (name === 'database') flags.database = raw;
    else flags[name] = Number(raw);
  }
  for (const name of NAMES) {
    if (name === 'database') continue;
    const value = flags[name];
    const ok = name === 'transcripts' ? value >= 0 && value <= 1 : Number.isInteger(value) && value >= 0;
    if (!ok) throw new Error(`--${optionName(name)}: invalid value ${value}`);
  }
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(flags.database)) throw new Error('--database must be a lower-case identifier');
  if (flags.sessions < 1 || flags.people < 1 || flags.accounts < 1 || flags.campaigns < 1)
    throw new Error('--sessions, --people, --accounts and --campaigns must be at least 1');
  const manifest =
    /** @type {string | undefined} */ (values.manifest) ??
    path.join(
      ROOT,
      'bench',
      flags.database === DEFAULTS.database ? '.dataset.json' : `.dataset.${flags.database}.json`,
    );
  return { flags, scale, rebuild: values.rebuild === true, manifest };
}

/** @param {Flags} flags */
const flagsKey = (flags) => JSON.stringify(NAMES.map((name) => flags[name]));

module.exports = { parseFlags, flagsKey };
