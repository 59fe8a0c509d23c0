import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SuppressionList } from '../src/modules/suppressions';
import { suppressionHash } from '../src/modules/suppressions/rules/email-hash';
import type { JobEnvelope, JobPage, Link, LinkPage, LinkUpdate, Usage, ValidationIssue } from './support/api-types';
import { createLinks } from './support/links';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';
import { dumpContaining } from './support/pg-dump';

/**
 * Issue 34 point 3, docs/api.md §18.3: an organization's suppressed emails are refused, with a 422
 * `value_error` at their loc, by session ingestion, link creation and link PATCH, before anything
 * is written or charged; nothing of the refused request is kept, not even under its Idempotency-Key.
 * The erasure API adds to the list; here the list is filled through its service.
 */
jest.setTimeout(120_000);

const REASON = 'this person asked to be erased';
/** Unique to the run: the database dump is searched for it. */
const ERASED = `erased.${randomUUID().slice(0, 8)}@example.com`;
/** Suppressed too: the organization without a list stores it, so the dump is not searched for it. */
const ALSO_ERASED = `gone.${randomUUID().slice(0, 8)}@example.org`;
const KEPT = `kept.${randomUUID().slice(0, 8)}@example.com`;

const refusal = (loc: (string | number)[], input: string): ValidationIssue => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${REASON}`,
  input,
  ctx: { error: REASON },
});

describe('suppression', () => {
  let t: TestApp;
  let db: DataSource;
  let list: SuppressionList;
  let subject: Tenant;
  let bystander: Tenant;
  /** Every line the app logs (at trace). */
  const logLines: string[] = [];

  const get = (path: string, key: string) => request(t.server).get(path).set('x-api-key', key).expect(200);
  const createBatch = (key: string, links: Record<string, unknown>[], idempotencyKey = randomUUID()) =>
    request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', key)
      .set('Idempotency-Key', idempotencyKey)
      .send({ links: links.map((link) => ({ shareThumbnailUrl: 'https://cdn.example.com/card.png', ...link })) });
  const patch = (key: string, id: string, body: object, idempotencyKey = randomUUID()) =>
    request(t.server)
      .patch(`/api/v1/custom-links/${id}`)
      .set('x-api-key', key)
      .set('Idempotency-Key', idempotencyKey)
      .send(body);
  const usage = async (key: string) => (await get('/api/v1/usage', key)).body as Usage;
  const charged = (u: Usage) => [u.linkMutations.used, u.linkCreationUnits.hour.used, u.thumbnailRenderUnits.hour.used];
  const suppress = (organizationId: string, ...emails: string[]) =>
    db.transaction(async (tx) => {
      for (const email of emails) await list.suppress(tx, organizationId, email);
    });

  beforeAll(async () => {
    t = await createTestApp(
      { APP_ROLE: 'all', LOG_LEVEL: 'trace', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' },
      { logDestination: { write: (line: string) => logLines.push(line) } },
    );
    db = t.app.get(DataSource);
    list = t.app.get(SuppressionList);
    subject = await t.createTenant();
    bystander = await t.createTenant();
    await suppress(subject.organizationId, ERASED, ALSO_ERASED);
    // Again, written otherwise: the same entry.
    await suppress(subject.organizationId, ` ${ERASED.toUpperCase()} `);
  });
  afterAll(() => t.close());

  describe('the list', () => {
    it('keeps a 64-hex salted hash per email and the organization’s salt, never the email', async () => {
      const salts: { salt: Buffer }[] = await db.query(
        `SELECT salt FROM suppression_salts WHERE organization_id = $1`,
        [subject.organizationId],
      );
      expect(salts).toHaveLength(1);
      expect(salts[0].salt).toHaveLength(32);
      const rows: { email_hash: string }[] = await db.query(
        `SELECT email_hash FROM privacy_suppressions WHERE organization_id = $1 ORDER BY email_hash`,
        [subject.organizationId],
      );
      expect(rows.map((row) => row.email_hash)).toEqual(
        [suppressionHash(salts[0].salt, ERASED), suppressionHash(salts[0].salt, ALSO_ERASED)].sort(),
      );
      for (const { email_hash } of rows) expect(email_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('answers which of the given emails are suppressed, as given, and nothing for an organization without a list', async () => {
      const variant = `\t${ERASED.toUpperCase()}`;
      expect(await list.suppressedAmong(subject.organizationId, [KEPT, variant, ALSO_ERASED, '  '])).toEqual(
        new Set([variant, ALSO_ERASED]),
      );
      expect(await list.suppressedAmong(subject.organizationId, [])).toEqual(new Set());
      expect(await list.suppressedAmong(bystander.organizationId, [ERASED, ALSO_ERASED])).toEqual(new Set());
      const salts: unknown[] = await db.query(`SELECT 1 FROM suppression_salts WHERE organization_id = $1`, [
        bystander.organizationId,
      ]);
      expect(salts).toEqual([]);
    });

    it('makes one salt when first suppressions race', async () => {
      const organizations = await Promise.all(Array.from({ length: 5 }, () => t.createTenant()));
      await Promise.all(
        organizations.flatMap(({ organizationId }) => [
          suppress(organizationId, 'first@example.com'),
          suppress(organizationId, 'second@example.com'),
          suppress(organizationId, 'third@example.com'),
        ]),
      );
      for (const { organizationId } of organizations) {
        const salts: unknown[] = await db.query(`SELECT salt FROM suppression_salts WHERE organization_id = $1`, [
          organizationId,
        ]);
        expect(salts).toHaveLength(1);
        const emails = ['first@example.com', 'second@example.com', 'third@example.com'];
        expect(await list.suppressedAmong(organizationId, emails)).toEqual(new Set(emails));
      }
    });
  });

  describe('session ingestion', () => {
    it('refuses a suppressed email with a 422 at body.email and stores no session', async () => {
      const id = newSessionId();
      const res = await ingest(t.server, subject.key, id, sessionBody({ email: ERASED })).expect(422);
      expect(res.body).toEqual({ detail: [refusal(['body', 'email'], ERASED)] });
      await request(t.server).get(`/api/v1/sessions/${id}`).set('x-api-key', subject.key).expect(404);
    });

    it.each([
      ['upper case', ERASED.toUpperCase()],
      ['surrounding spaces', `  ${ERASED} `],
      ['both', ` ${ERASED.replace(/^e/, 'E')}\t`],
    ])('refuses it written with %s, echoing it as sent', async (_, written) => {
      const res = await ingest(t.server, subject.key, newSessionId(), sessionBody({ email: written })).expect(422);
      expect(res.body).toEqual({ detail: [refusal(['body', 'email'], written)] });
    });

    it('refuses it before the session id is found to be another organization’s (409)', async () => {
      const id = newSessionId();
      await ingest(t.server, bystander.key, id, sessionBody({ email: KEPT })).expect(200);
      await ingest(t.server, subject.key, id, sessionBody({ email: ERASED })).expect(422);
      await ingest(t.server, subject.key, id, sessionBody({ email: KEPT })).expect(409);
    });

    it('judges a retry with the refused request’s Idempotency-Key afresh', async () => {
      const id = newSessionId();
      const key = randomUUID();
      const refused = () =>
        ingest(t.server, subject.key, id, sessionBody({ email: ERASED }))
          .set('Idempotency-Key', key)
          .expect(422);
      await refused();
      const again = await refused();
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      // A stored answer would make another body under the same key a 409.
      await ingest(t.server, subject.key, id, sessionBody({ email: KEPT }))
        .set('Idempotency-Key', key)
        .expect(200);
    });

    it('accepts other emails, and no email', async () => {
      await ingest(t.server, subject.key, newSessionId(), sessionBody({ email: KEPT })).expect(200);
      await ingest(t.server, subject.key, newSessionId(), sessionBody({ email: null })).expect(200);
      await ingest(t.server, subject.key, newSessionId(), sessionBody({ email: '' })).expect(200);
    });

    it('leaves another organization unaffected', async () => {
      const res = await ingest(t.server, bystander.key, newSessionId(), sessionBody({ email: ALSO_ERASED })).expect(
        200,
      );
      expect(res.body).toMatchObject({ personId: expect.any(String) });
    });
  });

  describe('link creation', () => {
    it('refuses a batch naming suppressed emails, listing every one, and creates or charges nothing', async () => {
      const before = charged(await usage(subject.key));
      const res = await createBatch(subject.key, [
        { firstName: 'Kay', email: KEPT },
        { firstName: 'Ada', email: ERASED },
        { firstName: 'Nobody' },
        { firstName: 'Gil', email: ALSO_ERASED.toUpperCase() },
        { firstName: 'Null', email: null },
      ]).expect(422);
      expect(res.body).toEqual({
        detail: [
          refusal(['body', 'links', 1, 'email'], ERASED),
          refusal(['body', 'links', 3, 'email'], ALSO_ERASED.toUpperCase()),
        ],
      });
      expect(charged(await usage(subject.key))).toEqual(before);
      expect(((await get('/api/v1/custom-link-jobs', subject.key)).body as JobPage).jobs).toEqual([]);
      expect(((await get('/api/v1/custom-links', subject.key)).body as LinkPage).total).toBe(0);
    });

    it('refuses it before the missing Idempotency-Key (400)', async () => {
      const links = [{ firstName: 'Ada', email: ERASED, shareThumbnailUrl: 'https://cdn.example.com/card.png' }];
      const post = () => request(t.server).post('/api/v1/custom-links').set('x-api-key', subject.key);
      const res = await post().send({ links }).expect(422);
      expect(res.body).toEqual({ detail: [refusal(['body', 'links', 0, 'email'], ERASED)] });
      await post()
        .send({ links: [{ ...links[0], email: KEPT }] })
        .expect(400);
    });

    it('judges a retry with the refused request’s Idempotency-Key afresh', async () => {
      const key = randomUUID();
      await createBatch(subject.key, [{ email: ERASED }], key).expect(422);
      const again = await createBatch(subject.key, [{ email: ERASED }], key).expect(422);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      const accepted = await createBatch(subject.key, [{ firstName: 'Kay', email: KEPT }], key).expect(202);
      expect((accepted.body as JobEnvelope).job.id).toEqual(expect.any(String));
    });

    it('accepts a batch of other emails, and leaves another organization unaffected', async () => {
      const [link] = await createLinks(t.server, subject.key, [{ firstName: 'Kay', email: ` ${KEPT}` }]);
      expect(link.email).toBe(` ${KEPT}`);
      const [theirs] = await createLinks(t.server, bystander.key, [{ firstName: 'Gil', email: ALSO_ERASED }]);
      expect(theirs.email).toBe(ALSO_ERASED);
    });
  });

  describe('link PATCH', () => {
    let link: Link;
    beforeAll(async () => {
      [link] = await createLinks(t.server, subject.key, [{ firstName: 'Kay', email: KEPT }]);
    });

    it('refuses setting a suppressed email, at body.email, changing and charging nothing', async () => {
      const before = charged(await usage(subject.key));
      const res = await patch(subject.key, link.id, { firstName: 'Ada', email: ERASED.toUpperCase() }).expect(422);
      expect(res.body).toEqual({ detail: [refusal(['body', 'email'], ERASED.toUpperCase())] });
      expect(charged(await usage(subject.key))).toEqual(before);
      const after = (await get(`/api/v1/custom-links/${link.id}`, subject.key)).body as Link;
      expect(after).toMatchObject({ firstName: 'Kay', email: KEPT });
    });

    it('refuses it before looking the link up (404)', async () => {
      await patch(subject.key, randomUUID(), { email: ERASED }).expect(422);
      await patch(subject.key, randomUUID(), { email: KEPT }).expect(404);
    });

    it('judges a retry with the refused request’s Idempotency-Key afresh', async () => {
      const key = randomUUID();
      await patch(subject.key, link.id, { email: ERASED }, key).expect(422);
      const res = await patch(subject.key, link.id, { email: `other.${KEPT}` }, key).expect(200);
      expect((res.body as LinkUpdate).customLink.email).toBe(`other.${KEPT}`);
    });

    it('accepts other emails, and clearing the email', async () => {
      expect(
        ((await patch(subject.key, link.id, { email: KEPT }).expect(200)).body as LinkUpdate).customLink.email,
      ).toBe(KEPT);
      expect(
        ((await patch(subject.key, link.id, { email: null }).expect(200)).body as LinkUpdate).customLink.email,
      ).toBe(null);
    });

    it('leaves another organization unaffected', async () => {
      const [theirs] = await createLinks(t.server, bystander.key, [{ firstName: 'Gil' }]);
      const res = await patch(bystander.key, theirs.id, { email: ALSO_ERASED }).expect(200);
      expect((res.body as LinkUpdate).customLink.email).toBe(ALSO_ERASED);
    });
  });

  describe('after the refusals', () => {
    it.each(['sessions', 'custom_links', 'custom_link_job_items', 'idempotency_records'])(
      'leaves no row of %s holding the email',
      async (table) => {
        // The whole row as text; the table name comes from the list above.
        const rows: unknown[] = await db.query(`SELECT 1 FROM ${table} t WHERE t::text ILIKE $1`, [`%${ERASED}%`]);
        expect(rows).toEqual([]);
        const kept: unknown[] = await db.query(`SELECT 1 FROM ${table} t WHERE t::text ILIKE $1`, [`%${KEPT}%`]);
        if (table !== 'idempotency_records') expect(kept.length).toBeGreaterThan(0);
      },
    );

    it('logs nothing of the email', () => {
      // The capture works: the refused requests were logged.
      expect(logLines.some((line) => line.includes('/api/v1/ingest/sessions/') && line.includes('422'))).toBe(true);
      expect(logLines.filter((line) => line.toLowerCase().includes(ERASED))).toEqual([]);
    });

    it('leaves nothing of the email in a dump of the database', async () => {
      expect(await dumpContaining(process.env.DATABASE_URL as string, [KEPT.toUpperCase()])).toEqual([
        KEPT.toUpperCase(),
      ]);
      expect(await dumpContaining(process.env.DATABASE_URL as string, [ERASED])).toEqual([]);
    });
  });
});
