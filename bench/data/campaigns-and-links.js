// Generation: campaigns, then the Custom Links of each organization: planned in bench_gen.links_plan,
// written as completed creation jobs, job items and links, with each prospect's first link.
'use strict';
const path = require('node:path');
const { VOCAB } = require('./vocabulary');
const { Params, uuid7, ms, analyze } = require('./sql');
const { linkOnlyProspects } = require('./organizations');
const { DIST } = require('./constants');

/**
 * @typedef {import('pg').Client} Client
 * @typedef {import('./organizations').OrganizationSpec} OrganizationSpec
 * @typedef {{ id: string, created_at: Date }} CampaignRow
 */

/**
 * Campaigns of one organization (the first is the large one), created over the past ten months.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {string} now  The build's "now" (ISO 8601).
 * @returns {Promise<CampaignRow[]>}
 */
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
  /** @type {CampaignRow[]} */
  const campaigns = rows;
  return campaigns.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/**
 * Links of one organization planned in bench_gen.links_plan: the large campaign's links, the other
 * campaigns sharing the rest, ~3 % unfiled; jobs of up to 500 links; personalization from prospects.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 * @param {CampaignRow[]} campaigns
 * @param {string} now
 */
async function planLinks(db, spec, campaigns, now) {
  if (spec.links === 0) return;
  const p = new Params();
  const L = p.v(spec.links, 'int');
  const unfiled = campaigns.length > 1 ? Math.round(spec.links * 0.03) : spec.links - spec.largeCampaign;
  const campaignIds = p.v(
    campaigns.map((c) => c.id),
    'uuid[]',
  );
  const campaignTimes = p.v(
    campaigns.map((c) => c.created_at.toISOString()),
    'timestamptz[]',
  );
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
  // Hot-link order among active links and bot-only links (a random permutation each). Analyzed
  // first: the planner took the fresh work table for empty and joined it to the permutation in a
  // nested loop (59 s at 200,000 links).
  await analyze(db, 'bench_gen.links_plan');
  await db.query(
    `WITH r AS MATERIALIZED (SELECT k, row_number() OVER (PARTITION BY activity ORDER BY random()) AS rank FROM bench_gen.links_plan WHERE org = $1)
     UPDATE bench_gen.links_plan l SET activity_rank = r.rank FROM r WHERE l.org = $1 AND l.k = r.k`,
    [spec.id],
  );
}

/** A job's campaign and a link's (both may be none), as a hashable join condition. */
const SAME_CAMPAIGN = `coalesce(j.campaign_id, '00000000-0000-0000-0000-000000000000') = coalesce(l.campaign_id, '00000000-0000-0000-0000-000000000000')`;

const EMAIL_HOST = `lower(split_part(l.email, '@', 2))`;

/**
 * A nullable text as a join key (NULL as a character no host or domain holds): an equality the
 * planner can hash, where IS NOT DISTINCT FROM made it compare every link with every account pair.
 * @param {string} expression
 */
const ABSENT_AS_KEY = (expression) => `coalesce(${expression}, chr(1))`;

/**
 * Each planned link's account domain (docs/api.md §13.5), by the service's own rule (compiled:
 * the Public Suffix List and the free-mail list are packages), once per distinct email host and
 * prospect domain, into bench_gen.link_accounts.
 * @param {Client} db
 * @param {OrganizationSpec} spec
 */
async function planAccountDomains(db, spec) {
  /** @type {{ prospectAccountDomain: (email: string | null, domain: string | null) => string | null }} */
  const { prospectAccountDomain } = require(path.join(DIST, 'common/network/account-domain'));
  const { rows } = await db.query(
    `SELECT DISTINCT ${EMAIL_HOST} AS host, l.prospect_domain AS domain FROM bench_gen.links_plan l
      WHERE l.org = $1 AND (l.email IS NOT NULL OR l.prospect_domain IS NOT NULL)`,
    [spec.id],
  );
  const accounts = rows.map((/** @type {{ host: string | null, domain: string | null }} */ row) => ({
    ...row,
    account_domain: prospectAccountDomain(row.host === null ? null : `x@${row.host}`, row.domain),
  }));
  await db.query(
    `INSERT INTO bench_gen.link_accounts (org, host, domain, account_domain)
     SELECT $1, a.host, a.domain, a.account_domain FROM jsonb_to_recordset($2::jsonb) AS a(host text, domain text, account_domain text)`,
    [spec.id, JSON.stringify(accounts)],
  );
}

/**
 * Jobs, job items and links from the plan, then each prospect's first link (sessions may come through it).
 * @param {Client} db
 * @param {OrganizationSpec} spec
 */
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
  await planAccountDomains(db, spec);
  // Planned with statistics: without them the plan and the account pairs each looked like one row, and
  // the join below compared every link with every pair (a nested loop of links × pairs: 49 of 55 s at
  // 20,000 links).
  await analyze(db, 'bench_gen.links_plan, bench_gen.jobs, bench_gen.link_accounts');
  // The links themselves (thumbnail provided), in creation order.
  await db.query(
    `INSERT INTO custom_links (organization_id, id, slug, display_name, active, external_id, first_name, last_name, email, phone, role, company, context,
       share_title, share_description, share_thumbnail_url, prospect_logo_url, prospect_domain, account_domain, campaign_id, job_id, thumbnail_status,
       created_at, updated_at)
     SELECT l.org, l.id, l.slug, l.display_name, l.active, l.external_id, l.first_name, l.last_name, l.email, l.phone, l.role, l.company, l.context,
            l.share_title, l.share_description, l.share_thumbnail_url, l.prospect_logo_url, l.prospect_domain, a.account_domain, l.campaign_id, j.id,
            'provided', l.created_at, l.created_at
       FROM bench_gen.links_plan l JOIN bench_gen.jobs j ON j.org = l.org AND j.job_no = l.job_no AND ${SAME_CAMPAIGN}
       LEFT JOIN bench_gen.link_accounts a ON a.org = l.org AND ${ABSENT_AS_KEY('a.host')} = ${ABSENT_AS_KEY(EMAIL_HOST)}
                                           AND ${ABSENT_AS_KEY('a.domain')} = ${ABSENT_AS_KEY('l.prospect_domain')}
      WHERE l.org = $1 ORDER BY l.created_at, l.id`,
    [spec.id],
  );
  // Each slug's link and organization, as link creation records them (migration GlobalKeyLookups).
  await db.query(
    `INSERT INTO custom_link_slugs (slug, custom_link_id, organization_id) SELECT slug, id, org FROM bench_gen.links_plan WHERE org = $1`,
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

module.exports = { generateCampaigns, planLinks, insertLinks };
