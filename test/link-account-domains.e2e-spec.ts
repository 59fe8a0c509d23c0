import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { migrationDataSourceOptions } from '../src/database/data-source-options';
import { MIGRATIONS } from '../src/database/migrations';
import { createDatabaseBefore, dropDatabase } from './support/databases';
import { createLinks } from './support/links';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * A Custom Link's stored account domain (docs/api.md §13.5, issue 33 point 4): the registrable
 * domain of its prospect email unless free mail, else of its prospectDomain, else none; set by link
 * creation and PATCH, and filled for the links made before by migration LinkAccountDomains.
 */

const LINKS = '/api/v1/custom-links';

describe("a link's account domain", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /** What the link stores (the API shows the account domain only through accounts). */
  const stored = async (who: Tenant, id: string): Promise<string | null> => {
    const rows: { account_domain: string | null }[] = await t.app
      .get(DataSource)
      .query(`SELECT account_domain FROM custom_links WHERE organization_id = $1 AND id = $2`, [
        who.organizationId,
        id,
      ]);
    expect(rows).toHaveLength(1);
    return rows[0].account_domain;
  };
  /** Links made by one creation job, their ids in input order. */
  const create = async (who: Tenant, links: Record<string, unknown>[]): Promise<string[]> =>
    (await createLinks(t.server, who.key, links)).map((link) => link.id);
  const patch = (who: Tenant, id: string, body: Record<string, unknown>) =>
    request(t.server)
      .patch(`${LINKS}/${id}`)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send(body)
      .expect(200);

  it('is set at creation: the email, else prospectDomain for free mail or no email, else none', async () => {
    const who = await t.createTenant(['custom_links:write']);
    const ids = await create(who, [
      { email: 'ann@EU.Acme.com', prospectDomain: 'other.io' },
      { email: 'bob@gmail.com', prospectDomain: 'https://www.Beta.co.uk/about' },
      { prospectDomain: 'gamma.io' },
      { email: 'cy@yahoo.com' },
      { firstName: 'Nobody' },
      { email: 'dee@gmail.com', prospectDomain: 'Delta Corp' },
    ]);
    const domains = [];
    for (const id of ids) domains.push(await stored(who, id));
    expect(domains).toEqual(['acme.com', 'beta.co.uk', 'gamma.io', null, null, null]);
  });

  it('follows a PATCH of the email or prospectDomain, and no other field', async () => {
    const who = await t.createTenant(['custom_links:write']);
    const [id] = await create(who, [{ email: 'ann@acme.com', prospectDomain: 'beta.io' }]);
    expect(await stored(who, id)).toBe('acme.com');

    await patch(who, id, { email: 'ann@gmail.com' });
    expect(await stored(who, id)).toBe('beta.io');
    await patch(who, id, { company: 'Beta', context: 'renewal' });
    expect(await stored(who, id)).toBe('beta.io');
    await patch(who, id, { prospectDomain: null });
    expect(await stored(who, id)).toBeNull();
    await patch(who, id, { prospectDomain: 'Sales.Gamma.io.' });
    expect(await stored(who, id)).toBe('gamma.io');
    await patch(who, id, { email: 'ann@delta.com', prospectDomain: 'gamma.io' });
    expect(await stored(who, id)).toBe('delta.com');
    await patch(who, id, { email: null });
    expect(await stored(who, id)).toBe('gamma.io');
  });

  it("keeps each organization's links apart (the same prospect in two organizations)", async () => {
    const [one, two] = [await t.createTenant(['custom_links:write']), await t.createTenant(['custom_links:write'])];
    const [a] = await create(one, [{ email: 'ann@acme.com' }]);
    const [b] = await create(two, [{ email: 'ann@gmail.com', prospectDomain: 'beta.io' }]);
    expect(await stored(one, a)).toBe('acme.com');
    expect(await stored(two, b)).toBe('beta.io');
  });
});

describe('migration LinkAccountDomains', () => {
  const name = `link_account_domains_${process.pid}`;
  const at = MIGRATIONS.findIndex((migration) => migration.name === 'LinkAccountDomains1766600000000');
  let url: string;
  let db: Client;

  beforeAll(async () => {
    url = await createDatabaseBefore(name, 'LinkAccountDomains1766600000000');
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await dropDatabase(name);
  });

  /** Links with the given email and prospect domain, inserted as the schema before the migration holds them. */
  async function insertLinks(organizationId: string, contacts: [string | null, string | null][]): Promise<string[]> {
    const ids: string[] = [];
    for (const [email, prospectDomain] of contacts) {
      const id = randomUUID();
      await db.query(
        `INSERT INTO custom_links (organization_id, id, slug, display_name, thumbnail_status, email, prospect_domain, created_at, updated_at)
         VALUES ($1, $2, $3, 'L', 'provided', $4, $5, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
        [organizationId, id, randomUUID().replace(/-/g, '').slice(0, 22), email, prospectDomain],
      );
      ids.push(id);
    }
    return ids;
  }

  it('fills the links made before it with the rule, in chunks, leaving updatedAt; down removes it all', async () => {
    const orgs: string[] = [];
    for (const org of ['one', 'two']) {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), $1) RETURNING id`,
        [org],
      );
      orgs.push(rows[0].id);
    }
    const contacts: [string | null, string | null][] = [
      ['ann@eu.acme.com', 'other.io'],
      ['bob@gmail.com', 'www.beta.co.uk'],
      [null, 'https://gamma.io/x'],
      ['cy@yahoo.com', null],
      [null, null],
    ];
    const first = await insertLinks(orgs[0], contacts);
    const second = await insertLinks(orgs[1], contacts.slice(0, 2));
    // More links than one chunk of the backfill (5,000), every one with a business email.
    await db.query(
      `INSERT INTO custom_links (organization_id, id, slug, display_name, thumbnail_status, email, updated_at)
       SELECT $1, gen_random_uuid(), 'bulk' || n, 'L', 'provided', 'p' || n || '@bulk' || (n % 3) || '.com', '2026-01-02T00:00:00Z'
         FROM generate_series(1, 12000) n`,
      [orgs[1]],
    );

    const after = new DataSource({ ...migrationDataSourceOptions(url), migrations: MIGRATIONS.slice(0, at + 1) });
    await after.initialize();
    expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
      'LinkAccountDomains1766600000000',
    ]);

    const domainsOf = async (ids: string[]) =>
      (
        await db.query<{ id: string; account_domain: string | null }>(
          `SELECT id, account_domain FROM custom_links WHERE id = ANY($1::uuid[])`,
          [ids],
        )
      ).rows
        .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
        .map((row) => row.account_domain);
    expect(await domainsOf(first)).toEqual(['acme.com', 'beta.co.uk', 'gamma.io', null, null]);
    expect(await domainsOf(second)).toEqual(['acme.com', 'beta.co.uk']);
    const { rows: bulk } = await db.query<{ account_domain: string; n: number }>(
      `SELECT account_domain, count(*)::int AS n FROM custom_links WHERE slug LIKE 'bulk%' GROUP BY 1 ORDER BY 1`,
    );
    expect(bulk).toEqual([
      { account_domain: 'bulk0.com', n: 4000 },
      { account_domain: 'bulk1.com', n: 4000 },
      { account_domain: 'bulk2.com', n: 4000 },
    ]);
    // Nothing a link shows changed: its updatedAt neither; and the touch trigger is on again.
    const { rows: touched } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM custom_links WHERE updated_at <> '2026-01-02T00:00:00Z'`,
    );
    expect(touched).toEqual([{ n: 0 }]);
    await db.query(`UPDATE custom_links SET company = 'Acme' WHERE id = $1`, [first[0]]);
    const { rows: moved } = await db.query<{ moved: boolean }>(
      `SELECT updated_at > '2026-01-02T00:00:00Z' AS moved FROM custom_links WHERE id = $1`,
      [first[0]],
    );
    expect(moved).toEqual([{ moved: true }]);
    // The read model shows it, and the index serves a lookup by domain.
    const { rows: model } = await db.query(
      `SELECT link_id, account_domain FROM link_rollups WHERE organization_id = $1 AND account_domain = 'acme.com'`,
      [orgs[0]],
    );
    expect(model).toEqual([{ link_id: first[0], account_domain: 'acme.com' }]);
    await db.query('SET enable_seqscan = off');
    const { rows: plan } = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM custom_links WHERE organization_id = '${orgs[1]}' AND account_domain = 'bulk1.com'`,
    );
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('custom_links_account_idx');
    await db.query('RESET enable_seqscan');

    await after.undoLastMigration({ transaction: 'each' });
    await after.destroy();
    const { rows: columns } = await db.query(
      `SELECT table_name FROM information_schema.columns WHERE column_name = 'account_domain' AND table_name IN ('custom_links', 'link_rollups')`,
    );
    expect(columns).toEqual([]);
    const { rows: view } = await db.query(`SELECT count(*)::int AS n FROM link_rollups`);
    expect(view).toEqual([{ n: 12007 }]);
  });
});
