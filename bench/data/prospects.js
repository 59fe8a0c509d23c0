// Generation: the company pool (seeded, shared by every organization) with the account domain of
// every email host, and each organization's prospects (future people and link-only prospects).
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const {
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
} = require('./vocabulary');
const { Params } = require('./sql');
const { linkOnlyProspects } = require('./organizations');

const COMPANY_BATCH = 10_000;

/** @typedef {ReturnType<typeof makeCompanies> extends Generator<infer C> ? C : never} Company */

/**
 * `count` companies with unique registrable domains (accountDomainOf(domain) === domain), a subdomain
 * host and a home country, one at a time: only their domains are kept (for uniqueness).
 * @param {number} count
 * @param {(email: string) => string | null} accountDomainOf
 */
function* makeCompanies(count, accountDomainOf) {
  // Seeded, so the company list is the same on every build.
  /** @type {typeof import('../../src/common/seeded-random')} */
  const { seededRandom } = require(path.join(DIST, 'common/seeded-random'));
  const random = seededRandom(20261122);
  /** @template T @param {readonly T[]} items @returns {T} */
  const pick = (items) => items[Math.floor(random() * items.length)];
  const countryWeights = weighted(COUNTRY_WEIGHTS);
  /** @param {string} country */
  const placeRange = (country) => {
    const lo = PLACES.findIndex((p) => p.startsWith(`${country}|`));
    return [lo + 1, PLACES.filter((p) => p.startsWith(`${country}|`)).length];
  };
  /** @type {Set<string>} */
  const domains = new Set();
  for (let attempts = 0; domains.size < count; attempts += 1) {
    if (attempts > count * 50 + 1000) throw new Error(`could not generate ${count} distinct company domains`);
    const prefix = pick(COMPANY_PREFIXES);
    const core = pick(COMPANY_CORES);
    const kind = pick(COMPANY_KINDS);
    const short = prefix + core;
    const name = kind ? `${short} ${kind}` : short;
    const tld = pick(TLDS);
    const label =
      random() < 0.06
        ? `${prefix.toLowerCase()}-${core}`
        : `${short.toLowerCase()}${kind && random() < 0.35 ? kind.toLowerCase() : ''}`;
    const domain = `${label}.${tld}`;
    if (domains.has(domain) || accountDomainOf(`x@${domain}`) !== domain) continue;
    domains.add(domain);
    const country = TLD_COUNTRY[tld] ?? (random() < 0.7 ? 'US' : pick(countryWeights));
    const [placeLo, placeN] = placeRange(country);
    yield {
      idx: domains.size,
      name,
      short,
      legal: `${name} ${pick(LEGAL_SUFFIXES)}`,
      domain,
      subHost: `${pick(SUBDOMAINS)}.${domain}`,
      placeLo,
      placeN,
    };
  }
}

/**
 * The company pool and the account domain of every email host (as the service computes it; none for free mail), in batches.
 * @param {import('pg').Client} db
 * @param {number} count
 * @returns {Promise<number>}
 */
async function loadCompanies(db, count) {
  /** @type {typeof import('../../src/modules/accounts/rules/account-domain')} */
  const { accountDomainOf } = require(path.join(DIST, 'modules/accounts/rules/account-domain'));
  /** @param {string[]} hosts */
  const insertHosts = (hosts) =>
    db.query(`INSERT INTO bench_gen.hosts SELECT * FROM unnest($1::text[], $2::text[])`, [
      hosts,
      hosts.map((host) => accountDomainOf(`x@${host}`)),
    ]);
  /** @type {Company[]} */
  let batch = [];
  const flush = async () => {
    /** @param {keyof Company} field */
    const column = (field) => batch.map((c) => c[field]);
    // A batch of the company pool.
    await db.query(
      `INSERT INTO bench_gen.companies SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[])`,
      [
        column('idx'),
        column('name'),
        column('short'),
        column('legal'),
        column('domain'),
        column('subHost'),
        column('placeLo'),
        column('placeN'),
      ],
    );
    await insertHosts(batch.flatMap((c) => [c.domain, c.subHost]));
    batch = [];
  };
  for (const company of makeCompanies(count, accountDomainOf)) {
    batch.push(company);
    if (batch.length === COMPANY_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  await insertHosts([...new Set(VOCAB.free_hosts)]);
  return count;
}

/**
 * Prospects of one organization: each of the first `companies` at its own company, the rest skewed; ~10 % on free mail.
 * @param {import('pg').Client} db
 * @param {import('./organizations').OrganizationSpec} spec
 * @param {number} pool  The companies in the shared pool.
 */
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

module.exports = { loadCompanies, generateProspects };
