// Generation: work tables (schema bench_gen, unlogged, dropped at the end).
'use strict';

/** @param {import('pg').Client} db */
async function createWorkTables(db) {
  await db.query(`DROP SCHEMA IF EXISTS bench_gen CASCADE`);
  await db.query(`CREATE SCHEMA bench_gen`);
  // Companies (shared pool) and the account domain of every email host (accountDomainOf, computed in Node).
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.companies (idx int PRIMARY KEY, name text, short_name text, legal_name text, domain text, sub_host text, place_lo int, place_n int)`,
  );
  await db.query(`CREATE UNLOGGED TABLE bench_gen.hosts (host text PRIMARY KEY, account_domain text)`);
  // Prospects: future people (n <= people) and link-only prospects.
  await db.query(`CREATE UNLOGGED TABLE bench_gen.prospects (org uuid, n int, first text, last text, email text, company_idx int, free boolean,
    business text, business_short text, business_legal text, place_i int, phone text, role text, PRIMARY KEY (org, n))`);
  await db.query(`CREATE UNLOGGED TABLE bench_gen.links_plan (org uuid, k int, id uuid, slug text, prospect_n int, campaign_id uuid, job_no int, job_rank int,
    created_at timestamptz, activity text, activity_rank int, display_name text, active boolean, external_id text, first_name text, last_name text,
    email text, phone text, role text, company text, context text, share_title text, share_description text, share_thumbnail_url text,
    prospect_logo_url text, prospect_domain text, explicit_display_name boolean)`);
  // The account domain of each link's email host and prospect domain (prospectAccountDomain, computed in Node).
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.link_accounts (org uuid, host text, domain text, account_domain text)`,
  );
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.jobs (org uuid, campaign_id uuid, job_no int, id uuid, total int, first_at timestamptz, last_at timestamptz)`,
  );
  await db.query(`CREATE UNLOGGED TABLE bench_gen.prospect_links (org uuid, prospect_n int, link_id uuid, campaign_id uuid, slug text, created_at timestamptz,
    responder boolean, PRIMARY KEY (org, prospect_n))`);
  // Sessions before they go to the real table (people and their ids are derived first).
  await db.query(`CREATE UNLOGGED TABLE bench_gen.sessions_stage (LIKE sessions INCLUDING DEFAULTS)`);
  await db.query(
    `CREATE TYPE bench_gen.qualification AS (status text, rationale text, source text, assessed_at timestamptz, rubric_version_id text)`,
  );
  await db.query(`CREATE UNLOGGED TABLE bench_gen.people_stage (LIKE people INCLUDING DEFAULTS)`);
  await db.query(`ALTER TABLE bench_gen.people_stage ALTER COLUMN id DROP NOT NULL, ALTER COLUMN intent_score DROP NOT NULL,
    ALTER COLUMN overall_intent DROP NOT NULL, ALTER COLUMN intent_calculated_at DROP NOT NULL`);
  await db.query(
    `CREATE UNLOGGED TABLE bench_gen.intent (organization_id uuid, email_key text, score double precision, overall text)`,
  );
  await db.query(`CREATE UNLOGGED TABLE bench_gen.visits_raw (org uuid, v int, link_id uuid, at timestamptz, bot boolean, visitor_id text, session_id uuid,
    types text[], last_pv int, start_off int, engaged_off int, lead_off int, mclick_off int, mbook_off int, end_off int)`);
}

module.exports = { createWorkTables };
