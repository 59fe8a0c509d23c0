import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { detailOf } from './support/api-responses';
import { DataSource } from 'typeorm';
import { lockNames } from '../src/common/database/advisory-locks';
import type {
  AgentLinks,
  Applied,
  Change,
  ChangeInput,
  Playbook,
  Preview,
  PublishJob,
  Section,
  SuggestionGroup,
  SuggestionGroupPage,
  ValidationIssue,
} from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * The Playbook and agent publishing through HTTP: docs/api.md §2.12, §3.3, §4.6, §4.7, §7, §7.3
 * (422 shape), §8, §8.1 (304s are not counted), §10 (Idempotency-Key), §14 (playbook and agent).
 * Publish jobs run on the app's own worker (APP_ROLE all).
 */

jest.setTimeout(120_000);

const PLAYBOOK = '/api/v1/playbook';
const GROUPS = `${PLAYBOOK}/suggestions`;
const AGENT = '/api/v1/agent';
const TESTS = `${AGENT}/conversation-tests`;
const JOBS = `${AGENT}/publish-jobs`;
const CONFIRM = 'publish-to-production';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const UNAUTHORIZED = { detail: 'API key required or invalid.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const UNAVAILABLE = { detail: 'The workflow is disabled or temporarily unavailable.' };
const GROUP_NOT_FOUND = { detail: "Suggestion group not found for the key's organization." };
const JOB_NOT_FOUND = { detail: "Publish job not found for the key's organization." };

/** Canonical JSON written independently of the service: object keys sorted at every depth. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const etagOf = (sections: Section[]) => sha256(canonical(sections));
const EMPTY_ETAG = sha256('[]');
/** A full change as stored (omitted optional fields are null). */
const stored = (c: ChangeInput): Change => ({ title: null, content: null, rationale: null, ...c });

describe('playbook and agent publishing', () => {
  let t: TestApp;
  let off: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000' });
    off = await createTestApp({ PLAYBOOK_APPLY_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await off.close();
    await t.close();
  });

  const get = (who: Tenant, path: string, app = () => t) => request(app().server).get(path).set('x-api-key', who.key);
  const put = (who: Tenant, path: string, body: unknown) =>
    request(t.server)
      .put(path)
      .set('x-api-key', who.key)
      .send(body as object);
  const post = (who: Tenant, path: string, body: unknown) =>
    request(t.server)
      .post(path)
      .set('x-api-key', who.key)
      .send(body as object);
  const playbook = async (who: Tenant): Promise<Playbook> => (await get(who, PLAYBOOK).expect(200)).body as Playbook;
  const putSections = async (who: Tenant, sections: Section[]): Promise<Playbook> =>
    (await put(who, PLAYBOOK, { sections }).expect(200)).body as Playbook;
  const createGroup = async (who: Tenant, changes: ChangeInput[]): Promise<SuggestionGroup> =>
    (await post(who, GROUPS, { changes }).expect(201)).body as SuggestionGroup;
  const getGroup = async (who: Tenant, id: string): Promise<SuggestionGroup> =>
    (await get(who, `${GROUPS}/${id}`).expect(200)).body as SuggestionGroup;
  const apply = (who: Tenant, groupId: string, body: unknown) => post(who, `${GROUPS}/${groupId}/apply`, body);
  const preview = (who: Tenant, groupId: string, body: unknown) => post(who, `${GROUPS}/${groupId}/preview`, body);
  const linksFor = (orgId: string, published: boolean): AgentLinks => ({
    staging: { url: `${t.config.agentBaseUrl}/staging/${orgId}`, availabilityReason: null },
    production: published
      ? { url: `${t.config.agentBaseUrl}/live/${orgId}`, availabilityReason: null }
      : { url: null, availabilityReason: 'not_published' },
  });

  const BASE: Section[] = [
    { key: 'intro', title: 'Introduction', content: 'Hello, I am the Acme assistant.' },
    { key: 'pricing', title: 'Pricing', content: 'Plans start at $10 per month.' },
  ];

  describe('GET /api/v1/playbook', () => {
    it('before anything: no version, no sections, the etag of "[]", staging link only', async () => {
      const who = await t.createTenant();
      const res = await get(who, PLAYBOOK).expect(200);
      expect(EMPTY_ETAG).toBe('4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945');
      expect(res.body).toEqual({
        version: null,
        productionVersion: null,
        sections: [],
        sectionsEtag: EMPTY_ETAG,
        links: {
          staging: { url: `${t.config.agentBaseUrl}/staging/${who.organizationId}`, availabilityReason: null },
          production: { url: null, availabilityReason: 'not_published' },
        },
      });
      expect((await get(who, AGENT).expect(200)).body).toEqual({
        stagingVersion: null,
        productionVersion: null,
        links: linksFor(who.organizationId, false),
      });
    });

    it('needs a key (401) and playbook:read or playbook:write to read, playbook:write to write (403)', async () => {
      const owner = await t.createTenant();
      const body = { sections: BASE };
      const none = await request(t.server).get(PLAYBOOK).expect(401);
      expect(none.body).toEqual(UNAUTHORIZED);
      expect(
        (await request(t.server).get(PLAYBOOK).set('x-api-key', 'sk_live_00000000000000000000000000000000').expect(401))
          .body,
      ).toEqual(UNAUTHORIZED);
      expect((await request(t.server).put(PLAYBOOK).send(body).expect(401)).body).toEqual(UNAUTHORIZED);

      const key = async (scopes: Parameters<TestApp['createKey']>[1]): Promise<Tenant> => ({
        organizationId: owner.organizationId,
        key: await t.createKey(owner.organizationId, scopes),
      });
      const reader = await key(['playbook:read']);
      const writer = await key(['playbook:write']);
      const publisher = await key(['agent:publish']);
      const other = await key(['sessions:read', 'custom_links:write']);

      expect((await get(other, PLAYBOOK).expect(403)).body).toEqual(FORBIDDEN);
      expect((await get(publisher, PLAYBOOK).expect(403)).body).toEqual(FORBIDDEN);
      expect((await get(reader, PLAYBOOK).expect(200)).body).toMatchObject({ version: null });
      expect((await get(writer, PLAYBOOK).expect(200)).body).toMatchObject({ version: null });
      expect((await get(reader, GROUPS).expect(200)).body).toMatchObject({ total: 0 });

      expect((await put(reader, PLAYBOOK, body).expect(403)).body).toEqual(FORBIDDEN);
      expect((await put(publisher, PLAYBOOK, body).expect(403)).body).toEqual(FORBIDDEN);
      expect(
        (
          await post(reader, GROUPS, { changes: [{ changeId: 'a', sectionKey: 'intro', operation: 'remove' }] }).expect(
            403,
          )
        ).body,
      ).toEqual(FORBIDDEN);
      // Authentication and scope come before validation and lookup.
      expect((await apply(reader, UNKNOWN_ID, {}).expect(403)).body).toEqual(FORBIDDEN);
      expect((await preview(reader, UNKNOWN_ID, {}).expect(403)).body).toEqual(FORBIDDEN);
      expect((await playbook(reader)).version).toBeNull();

      expect((await put(writer, PLAYBOOK, body).expect(200)).body).toMatchObject({ version: 1 });
      expect((await playbook(reader)).version).toBe(1);
    });
  });

  describe('PUT /api/v1/playbook', () => {
    it('creates versions 1, 2, … with the canonical-JSON sha256 etag; identical sections keep the version', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      expect(v1).toEqual({
        version: 1,
        productionVersion: null,
        sections: BASE,
        sectionsEtag: etagOf(BASE),
        links: linksFor(who.organizationId, false),
      });
      // Keys are sorted: the etag is not the hash of the plain JSON text ({key, title, content} order).
      expect(v1.sectionsEtag).not.toBe(sha256(JSON.stringify(BASE)));
      expect(v1.sectionsEtag).toBe(
        sha256(
          `[${BASE.map((s) => `{"content":${JSON.stringify(s.content)},"key":${JSON.stringify(s.key)},"title":${JSON.stringify(s.title)}}`).join(',')}]`,
        ),
      );
      expect(await playbook(who)).toEqual(v1);

      // The same sections with properties in another order: no new version.
      const reordered = BASE.map((s) => ({ content: s.content, title: s.title, key: s.key }));
      expect((await put(who, PLAYBOOK, { sections: reordered }).expect(200)).body).toEqual(v1);
      expect((await playbook(who)).version).toBe(1);

      const second: Section[] = [BASE[1], { key: 'faq', title: 'FAQ', content: 'Ask me anything. Ünïcödé ✓' }];
      const v2 = await putSections(who, second);
      expect(v2).toEqual({
        version: 2,
        productionVersion: null,
        sections: second,
        sectionsEtag: etagOf(second),
        links: linksFor(who.organizationId, false),
      });
      expect(v2.sectionsEtag).not.toBe(v1.sectionsEtag);

      // Section order matters: the reversed list is a new version.
      const reversed = [...second].reverse();
      const v3 = (await put(who, PLAYBOOK, { sections: reversed, expectedSectionsEtag: v2.sectionsEtag }).expect(200))
        .body as Playbook;
      expect(v3).toMatchObject({ version: 3, sections: reversed, sectionsEtag: etagOf(reversed) });

      // An empty list is a version too, with the etag of "[]".
      const v4 = await putSections(who, []);
      expect(v4).toMatchObject({ version: 4, sections: [], sectionsEtag: EMPTY_ETAG });
      expect(await playbook(who)).toEqual(v4);
    });

    it('a stale expectedSectionsEtag is a 409 and changes nothing', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const res = await put(who, PLAYBOOK, { sections: [BASE[0]], expectedSectionsEtag: EMPTY_ETAG }).expect(409);
      expect(res.body).toEqual(CONFLICT);
      expect(await playbook(who)).toEqual(v1);
      // The current etag is accepted.
      expect(
        (await put(who, PLAYBOOK, { sections: [BASE[0]], expectedSectionsEtag: v1.sectionsEtag }).expect(200)).body,
      ).toMatchObject({ version: 2, sections: [BASE[0]] });
      // Before any version, the etag of "[]" is current.
      const fresh = await t.createTenant();
      expect(
        (await put(fresh, PLAYBOOK, { sections: BASE, expectedSectionsEtag: 'f'.repeat(64) }).expect(409)).body,
      ).toEqual(CONFLICT);
      expect(
        (await put(fresh, PLAYBOOK, { sections: BASE, expectedSectionsEtag: EMPTY_ETAG }).expect(200)).body,
      ).toMatchObject({ version: 1 });
    });

    it('answers 422 for bad bodies and creates nothing', async () => {
      const who = await t.createTenant();
      const cases: [unknown, (string | number)[], string][] = [
        [{}, ['body', 'sections'], 'missing'],
        [{ sections: [{ title: 'T', content: 'C' }] }, ['body', 'sections', 0, 'key'], 'missing'],
        [
          { sections: [BASE[0], { key: '', title: 'T', content: 'C' }] },
          ['body', 'sections', 1, 'key'],
          'string_too_short',
        ],
        [{ sections: [{ key: 'k', title: 'T', content: 5 }] }, ['body', 'sections', 0, 'content'], 'string_type'],
        [{ sections: BASE, expectedSectionsEtag: 'abc' }, ['body', 'expectedSectionsEtag'], 'string_too_short'],
      ];
      const seen: unknown[] = [];
      for (const [body] of cases) {
        const res = await put(who, PLAYBOOK, body);
        seen.push({
          body,
          status: res.status,
          detail: res.status === 422 ? detailOf(res).map((e) => ({ loc: e.loc, type: e.type })) : res.body,
        });
      }
      expect(seen).toEqual(cases.map(([body, loc, type]) => ({ body, status: 422, detail: [{ loc, type }] })));
      expect((await playbook(who)).version).toBeNull();
    });
  });

  it('a list field given a non-list is a 422 list_type on every playbook body (PUT, suggestions, preview, conversation tests)', async () => {
    const who = await t.createTenant();
    const group = await createGroup(who, [{ changeId: 'c1', sectionKey: 'intro', operation: 'remove' }]);
    const probes: [string, string, unknown, string][] = [
      ['PUT', PLAYBOOK, { sections: 'x' }, 'sections'],
      ['POST', GROUPS, { changes: 'x' }, 'changes'],
      ['POST', `${GROUPS}/${group.id}/preview`, { changeIds: ['c1'], edits: 'x' }, 'edits'],
      ['PUT', TESTS, { tests: 'x' }, 'tests'],
    ];
    const seen: unknown[] = [];
    for (const [method, path, body] of probes) {
      const res = method === 'PUT' ? await put(who, path, body) : await post(who, path, body);
      seen.push({
        path,
        status: res.status,
        detail: res.status === 422 ? detailOf(res).map((e) => ({ loc: e.loc, type: e.type })) : res.body,
      });
    }
    expect(seen).toEqual(
      probes.map(([, path, , field]) => ({ path, status: 422, detail: [{ loc: ['body', field], type: 'list_type' }] })),
    );
  });

  describe('suggestion groups', () => {
    it('POST answers 201 with the stored group; GET one returns it', async () => {
      const who = await t.createTenant();
      const changes: ChangeInput[] = [
        { changeId: 'c1', sectionKey: 'intro', operation: 'replace', content: 'New intro', rationale: 'Friendlier' },
        { changeId: 'c2', sectionKey: 'faq', operation: 'add', title: 'FAQ', content: 'Questions' },
        { changeId: 'c3', sectionKey: 'pricing', operation: 'remove' },
      ];
      const before = Date.now();
      const res = await post(who, GROUPS, { changes }).expect(201);
      const group = res.body as SuggestionGroup;
      expect(group).toEqual({
        id: expect.stringMatching(UUID),
        generationRevision: 0,
        status: 'open',
        changes: changes.map(stored),
        createdAt: expect.stringMatching(ISO_MS_Z),
      });
      expect(Date.parse(group.createdAt)).toBeGreaterThanOrEqual(before - 2000);
      expect(await getGroup(who, group.id)).toEqual(group);
    });

    it('GET list is paginated, newest first, with total', async () => {
      const who = await t.createTenant();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1)
        ids.push((await createGroup(who, [{ changeId: `c${i}`, sectionKey: 'intro', operation: 'remove' }])).id);
      const all = (await get(who, GROUPS).expect(200)).body as SuggestionGroupPage;
      expect(all).toMatchObject({ total: 3, limit: 50, offset: 0 });
      expect(all.suggestionGroups.map((g) => g.id)).toEqual([...ids].reverse());
      expect(all.suggestionGroups[0]).toEqual(await getGroup(who, ids[2]));
      const page = (await get(who, `${GROUPS}?limit=2&offset=1`).expect(200)).body as SuggestionGroupPage;
      expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
      expect(page.suggestionGroups.map((g) => g.id)).toEqual([ids[1], ids[0]]);
      // Another organization sees none of them.
      const other = await t.createTenant();
      expect((await get(other, GROUPS).expect(200)).body).toEqual({
        suggestionGroups: [],
        total: 0,
        limit: 50,
        offset: 0,
      });
    });

    it('404 for an unknown group or one of another organization', async () => {
      const who = await t.createTenant();
      const other = await t.createTenant();
      const group = await createGroup(who, [{ changeId: 'c1', sectionKey: 'intro', operation: 'remove' }]);
      expect((await get(who, `${GROUPS}/${UNKNOWN_ID}`).expect(404)).body).toEqual(GROUP_NOT_FOUND);
      expect((await get(other, `${GROUPS}/${group.id}`).expect(404)).body).toEqual(GROUP_NOT_FOUND);
      expect((await preview(other, group.id, { changeIds: ['c1'] }).expect(404)).body).toEqual(GROUP_NOT_FOUND);
      const body = { changeIds: ['c1'], expectedSectionsEtag: EMPTY_ETAG, expectedGenerationRevision: 0 };
      expect((await apply(other, group.id, body).expect(404)).body).toEqual(GROUP_NOT_FOUND);
      expect((await apply(who, UNKNOWN_ID, body).expect(404)).body).toEqual(GROUP_NOT_FOUND);
      expect((await playbook(other)).version).toBeNull();
      expect((await getGroup(who, group.id)).status).toBe('open');
    });

    it('a list item that is itself a list is a 422 model_attributes_type at its index and stores nothing', async () => {
      const who = await t.createTenant();
      const res = await post(who, GROUPS, {
        changes: [[], { changeId: 'c1', sectionKey: 'intro', operation: 'remove' }],
      }).expect(422);
      expect(detailOf(res)).toEqual([
        {
          type: 'model_attributes_type',
          loc: ['body', 'changes', 0],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: [],
        },
      ]);
      expect((await get(who, GROUPS).expect(200)).body).toMatchObject({ total: 0, suggestionGroups: [] });
    });

    it('duplicate changeIds in one group are a 409 and store nothing', async () => {
      const who = await t.createTenant();
      const res = await post(who, GROUPS, {
        changes: [
          { changeId: 'dup', sectionKey: 'intro', operation: 'remove' },
          { changeId: 'other', sectionKey: 'intro', operation: 'remove' },
          { changeId: 'dup', sectionKey: 'pricing', operation: 'remove' },
        ],
      }).expect(409);
      expect(res.body).toEqual(CONFLICT);
      expect((await get(who, GROUPS).expect(200)).body).toMatchObject({ total: 0, suggestionGroups: [] });
    });
  });

  describe('preview', () => {
    it('returns the resulting sections and their etag and applies nothing', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const group = await createGroup(who, [
        { changeId: 'c1', sectionKey: 'intro', operation: 'replace', content: 'Hi there!' },
        { changeId: 'c2', sectionKey: 'faq', operation: 'add', title: 'FAQ', content: 'Ask away.' },
        { changeId: 'c3', sectionKey: 'pricing', operation: 'remove' },
        { changeId: 'c4', sectionKey: 'pricing', operation: 'replace', title: 'Prices' },
      ]);
      const expected: Section[] = [
        { key: 'intro', title: 'Introduction', content: 'Hi there!' },
        { key: 'faq', title: 'FAQ', content: 'Ask away.' },
      ];
      const res = await preview(who, group.id, { changeIds: ['c3', 'c2', 'c1'] }).expect(200);
      expect(res.body).toEqual({ sections: expected, sectionsEtag: etagOf(expected), generationRevision: 0 });
      // Replace keeps the omitted content; only c4 selected.
      const titleOnly = [BASE[0], { key: 'pricing', title: 'Prices', content: BASE[1].content }];
      expect((await preview(who, group.id, { changeIds: ['c4'] }).expect(200)).body).toEqual({
        sections: titleOnly,
        sectionsEtag: etagOf(titleOnly),
        generationRevision: 0,
      });
      expect(await playbook(who)).toEqual(v1);
      expect(await getGroup(who, group.id)).toEqual(group);
    });

    it('edits store new wording and raise generationRevision by exactly one; unknown changeIds are a 409', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const group = await createGroup(who, [
        {
          changeId: 'c1',
          sectionKey: 'intro',
          operation: 'replace',
          title: 'Intro',
          content: 'Original wording',
          rationale: 'why',
        },
        { changeId: 'c2', sectionKey: 'pricing', operation: 'replace', content: 'Cheaper' },
      ]);
      const edited = (
        await preview(who, group.id, {
          changeIds: ['c1'],
          edits: [{ changeId: 'c1', content: 'Edited wording' }],
        }).expect(200)
      ).body as Preview;
      const expected = [{ key: 'intro', title: 'Intro', content: 'Edited wording' }, BASE[1]];
      expect(edited).toEqual({ sections: expected, sectionsEtag: etagOf(expected), generationRevision: 1 });
      expect(await getGroup(who, group.id)).toEqual({
        ...group,
        generationRevision: 1,
        changes: [{ ...group.changes[0], content: 'Edited wording' }, group.changes[1]],
      });

      // A preview without edits keeps the revision; the stored wording is used.
      expect((await preview(who, group.id, { changeIds: ['c1'] }).expect(200)).body).toEqual(edited);
      expect((await getGroup(who, group.id)).generationRevision).toBe(1);

      // Two edits in one preview: still one step.
      const both = (
        await preview(who, group.id, {
          changeIds: ['c1', 'c2'],
          edits: [
            { changeId: 'c1', content: 'Third' },
            { changeId: 'c2', content: 'Fourth' },
          ],
        }).expect(200)
      ).body as Preview;
      expect(both.generationRevision).toBe(2);
      expect((await getGroup(who, group.id)).changes.map((c) => c.content)).toEqual(['Third', 'Fourth']);

      // Unknown changeIds (selected or edited): 409, nothing stored.
      expect((await preview(who, group.id, { changeIds: ['c1', 'nope'] }).expect(409)).body).toEqual(CONFLICT);
      expect(
        (await preview(who, group.id, { changeIds: ['c1'], edits: [{ changeId: 'nope', content: 'x' }] }).expect(409))
          .body,
      ).toEqual(CONFLICT);
      expect(
        (
          await preview(who, group.id, {
            changeIds: ['c1'],
            edits: [
              { changeId: 'c1', content: 'Lost' },
              { changeId: 'nope', content: 'x' },
            ],
          }).expect(409)
        ).body,
      ).toEqual(CONFLICT);
      const after = await getGroup(who, group.id);
      expect(after.generationRevision).toBe(2);
      expect(after.changes.map((c) => c.content)).toEqual(['Third', 'Fourth']);
      expect(await playbook(who)).toEqual(v1);
    });
  });

  describe('apply', () => {
    /** A tenant with BASE as version 1 and one open group. */
    const setup = async (changes: ChangeInput[]) => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const group = await createGroup(who, changes);
      return { who, v1, group };
    };
    const REPLACE_INTRO: ChangeInput[] = [
      { changeId: 'c1', sectionKey: 'intro', operation: 'replace', content: 'Applied intro' },
    ];

    it('validates the strict body with pydantic-shaped 422s and changes nothing', async () => {
      const { who, v1, group } = await setup(REPLACE_INTRO);
      const valid = { changeIds: ['c1'], expectedSectionsEtag: v1.sectionsEtag, expectedGenerationRevision: 0 };
      const one = async (body: unknown): Promise<ValidationIssue[]> =>
        detailOf(await apply(who, group.id, body).expect(422));

      expect(await one({ ...valid, force: true })).toEqual([
        { type: 'extra_forbidden', loc: ['body', 'force'], msg: 'Extra inputs are not permitted', input: true },
      ]);
      expect(await one({ ...valid, changeIds: [] })).toEqual([
        {
          type: 'too_short',
          loc: ['body', 'changeIds'],
          msg: 'List should have at least 1 item after validation, not 0',
          input: [],
          ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
        },
      ]);
      const many = Array.from({ length: 101 }, (_, i) => `id${i}`);
      expect(await one({ ...valid, changeIds: many })).toEqual([
        {
          type: 'too_long',
          loc: ['body', 'changeIds'],
          msg: 'List should have at most 100 items after validation, not 101',
          input: many,
          ctx: { field_type: 'List', max_length: 100, actual_length: 101 },
        },
      ]);
      const short = 'a'.repeat(63);
      const long = 'a'.repeat(65);
      expect(await one({ ...valid, expectedSectionsEtag: short })).toEqual([
        {
          type: 'string_too_short',
          loc: ['body', 'expectedSectionsEtag'],
          msg: 'String should have at least 64 characters',
          input: short,
          ctx: { min_length: 64 },
        },
      ]);
      expect(await one({ ...valid, expectedSectionsEtag: long })).toEqual([
        {
          type: 'string_too_long',
          loc: ['body', 'expectedSectionsEtag'],
          msg: 'String should have at most 64 characters',
          input: long,
          ctx: { max_length: 64 },
        },
      ]);
      expect(await one({ ...valid, expectedGenerationRevision: -1 })).toEqual([
        {
          type: 'greater_than_equal',
          loc: ['body', 'expectedGenerationRevision'],
          msg: 'Input should be greater than or equal to 0',
          input: -1,
          ctx: { ge: 0 },
        },
      ]);
      expect(await one({ ...valid, expectedGenerationRevision: 'x' })).toEqual([
        {
          type: 'int_parsing',
          loc: ['body', 'expectedGenerationRevision'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'x',
        },
      ]);

      const missing = await one({});
      expect(missing).toHaveLength(3);
      expect(missing).toEqual(
        expect.arrayContaining(
          ['changeIds', 'expectedSectionsEtag', 'expectedGenerationRevision'].map((name) => ({
            type: 'missing',
            loc: ['body', name],
            msg: 'Field required',
            input: {},
          })),
        ),
      );

      // Every failing field in one 422.
      const everything = await one({
        changeIds: [],
        expectedSectionsEtag: short,
        expectedGenerationRevision: -1,
        extra: 1,
      });
      expect(everything).toHaveLength(4);
      expect(everything.map((e) => `${e.loc.join('.')}:${e.type}`).sort()).toEqual(
        [
          'body.changeIds:too_short',
          'body.expectedGenerationRevision:greater_than_equal',
          'body.expectedSectionsEtag:string_too_short',
          'body.extra:extra_forbidden',
        ].sort(),
      );
      const partial = await one({ changeIds: ['c1'], expectedGenerationRevision: 'x' });
      expect(partial.map((e) => `${e.loc.join('.')}:${e.type}`).sort()).toEqual([
        'body.expectedGenerationRevision:int_parsing',
        'body.expectedSectionsEtag:missing',
      ]);

      expect(await playbook(who)).toEqual(v1);
      expect(await getGroup(who, group.id)).toEqual(group);
      // The valid body still works afterwards.
      expect((await apply(who, group.id, valid).expect(200)).body).toMatchObject({ version: 2 });
    });

    it('applies the selected changes: response, new staging version, GET /playbook', async () => {
      const { who, v1, group } = await setup([
        { changeId: 'c1', sectionKey: 'intro', operation: 'replace', content: 'Welcome to Acme!' },
        { changeId: 'c2', sectionKey: 'faq', operation: 'add', title: 'FAQ', content: 'Ask me.' },
        { changeId: 'c3', sectionKey: 'pricing', operation: 'remove' },
      ]);
      const expected: Section[] = [
        { key: 'intro', title: 'Introduction', content: 'Welcome to Acme!' },
        BASE[1],
        { key: 'faq', title: 'FAQ', content: 'Ask me.' },
      ];
      const res = await apply(who, group.id, {
        changeIds: ['c2', 'c1'],
        expectedSectionsEtag: v1.sectionsEtag,
        expectedGenerationRevision: 0,
      }).expect(200);
      expect(res.body).toEqual({
        groupId: group.id,
        status: 'applied',
        version: 2,
        noChange: false,
        sectionsEtag: etagOf(expected),
        links: linksFor(who.organizationId, false),
      });
      expect(await playbook(who)).toEqual({
        version: 2,
        productionVersion: null,
        sections: expected,
        sectionsEtag: etagOf(expected),
        links: linksFor(who.organizationId, false),
      });
      expect((await get(who, AGENT).expect(200)).body).toMatchObject({ stagingVersion: 2, productionVersion: null });
      expect((await getGroup(who, group.id)).status).toBe('applied');
      // The old etag is now stale.
      expect(
        (
          await apply(who, group.id, {
            changeIds: ['c3'],
            expectedSectionsEtag: v1.sectionsEtag,
            expectedGenerationRevision: 0,
          }).expect(409)
        ).body,
      ).toEqual(CONFLICT);
      expect((await playbook(who)).version).toBe(2);
    });

    it('applies changes in group order exactly as stored, whatever the request order', async () => {
      const { who, v1, group } = await setup([
        {
          changeId: 'first',
          sectionKey: 'intro',
          operation: 'replace',
          title: 'First title',
          content: 'First content',
        },
        { changeId: 'second', sectionKey: 'intro', operation: 'replace', content: 'Second content' },
        { changeId: 'drop', sectionKey: 'extra', operation: 'remove' },
        { changeId: 'readd', sectionKey: 'extra', operation: 'add', title: 'Extra', content: 'Back again' },
      ]);
      const expected: Section[] = [
        { key: 'intro', title: 'First title', content: 'Second content' },
        BASE[1],
        { key: 'extra', title: 'Extra', content: 'Back again' },
      ];
      const res = await apply(who, group.id, {
        changeIds: ['readd', 'second', 'drop', 'first'],
        expectedSectionsEtag: v1.sectionsEtag,
        expectedGenerationRevision: 0,
      }).expect(200);
      expect(res.body).toMatchObject({ version: 2, noChange: false, sectionsEtag: etagOf(expected) });
      expect((await playbook(who)).sections).toEqual(expected);

      // The reverse group order gives the other winner.
      const reverse = await createGroup(who, [
        { changeId: 'b', sectionKey: 'pricing', operation: 'replace', content: 'B wins?' },
        { changeId: 'a', sectionKey: 'pricing', operation: 'replace', content: 'A wins' },
      ]);
      const res2 = await apply(who, reverse.id, {
        changeIds: ['a', 'b'],
        expectedSectionsEtag: etagOf(expected),
        expectedGenerationRevision: 0,
      }).expect(200);
      const expected2 = [expected[0], { ...BASE[1], content: 'A wins' }, expected[2]];
      expect(res2.body).toMatchObject({ version: 3, sectionsEtag: etagOf(expected2) });
      expect((await playbook(who)).sections).toEqual(expected2);
    });

    it('409 for a stale etag, a stale revision (after a preview with edits) or an unknown changeId; nothing changes', async () => {
      const { who, v1, group } = await setup(REPLACE_INTRO);
      const valid = { changeIds: ['c1'], expectedSectionsEtag: v1.sectionsEtag, expectedGenerationRevision: 0 };
      expect((await apply(who, group.id, { ...valid, expectedSectionsEtag: EMPTY_ETAG }).expect(409)).body).toEqual(
        CONFLICT,
      );
      expect((await apply(who, group.id, { ...valid, changeIds: ['c1', 'unknown'] }).expect(409)).body).toEqual(
        CONFLICT,
      );
      expect((await apply(who, group.id, { ...valid, expectedGenerationRevision: 1 }).expect(409)).body).toEqual(
        CONFLICT,
      );
      expect(await playbook(who)).toEqual(v1);
      expect((await getGroup(who, group.id)).status).toBe('open');

      await preview(who, group.id, {
        changeIds: ['c1'],
        edits: [{ changeId: 'c1', content: 'Reworded intro' }],
      }).expect(200);
      expect((await apply(who, group.id, valid).expect(409)).body).toEqual(CONFLICT);
      expect(await playbook(who)).toEqual(v1);

      // With the new revision, the edited wording is what gets applied.
      const res = await apply(who, group.id, { ...valid, expectedGenerationRevision: 1 }).expect(200);
      const expected = [{ ...BASE[0], content: 'Reworded intro' }, BASE[1]];
      expect(res.body).toMatchObject({ version: 2, noChange: false, sectionsEtag: etagOf(expected) });
      expect((await playbook(who)).sections).toEqual(expected);
    });

    it('a result equal to the current sections is noChange: true, version: null, and adds no version', async () => {
      const { who, v1, group } = await setup([
        { changeId: 'same', sectionKey: 'intro', operation: 'replace', title: BASE[0].title, content: BASE[0].content },
        { changeId: 'ghost', sectionKey: 'missing', operation: 'remove' },
        { changeId: 'real', sectionKey: 'intro', operation: 'replace', content: 'Different' },
      ]);
      const res = await apply(who, group.id, {
        changeIds: ['same', 'ghost'],
        expectedSectionsEtag: v1.sectionsEtag,
        expectedGenerationRevision: 0,
      }).expect(200);
      expect(res.body).toEqual({
        groupId: group.id,
        status: 'applied',
        version: null,
        noChange: true,
        sectionsEtag: v1.sectionsEtag,
        links: linksFor(who.organizationId, false),
      });
      expect(await playbook(who)).toEqual(v1);
      expect((await get(who, AGENT).expect(200)).body).toMatchObject({ stagingVersion: 1 });
    });

    it('Idempotency-Key: a replay returns the same body with Idempotent-Replayed and adds no version', async () => {
      const { who, v1, group } = await setup(REPLACE_INTRO);
      const key = randomUUID();
      const body = { changeIds: ['c1'], expectedSectionsEtag: v1.sectionsEtag, expectedGenerationRevision: 0 };
      const first = await apply(who, group.id, body).set('Idempotency-Key', key).expect(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(first.body).toMatchObject({ version: 2, noChange: false });
      const again = await apply(who, group.id, body).set('Idempotency-Key', key).expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await playbook(who)).version).toBe(2);
      // Without the key the same body is now a stale etag.
      expect((await apply(who, group.id, body).expect(409)).body).toEqual(CONFLICT);
      // The same key with another body: 409.
      const other = await apply(who, group.id, {
        ...body,
        expectedSectionsEtag: (first.body as Applied).sectionsEtag,
      })
        .set('Idempotency-Key', key)
        .expect(409);
      expect(other.body).toEqual(CONFLICT);
      expect((await playbook(who)).version).toBe(2);
    });

    it('20 parallel applies on one etag: exactly one 200, nineteen 409, one new version', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const groups = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          createGroup(who, [{ changeId: 'c', sectionKey: 'intro', operation: 'replace', content: `Racer ${i}` }]),
        ),
      );
      const results = await Promise.all(
        groups.map((g) =>
          apply(who, g.id, { changeIds: ['c'], expectedSectionsEtag: v1.sectionsEtag, expectedGenerationRevision: 0 }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const winnerIndex = statuses.indexOf(200);
      expect(results[winnerIndex].body).toMatchObject({ groupId: groups[winnerIndex].id, version: 2 });
      const now = await playbook(who);
      expect(now.version).toBe(2);
      expect(now.sections).toEqual([{ ...BASE[0], content: `Racer ${winnerIndex}` }, BASE[1]]);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual(CONFLICT);
    }, 60_000);
  });

  describe('apply while disabled', () => {
    it('503 with Retry-After and the documented text; nothing changes', async () => {
      const who = await t.createTenant();
      const v1 = await putSections(who, BASE);
      const group = await createGroup(who, [{ changeId: 'c1', sectionKey: 'intro', operation: 'remove' }]);
      const res = await request(off.server)
        .post(`${GROUPS}/${group.id}/apply`)
        .set('x-api-key', who.key)
        .send({ changeIds: ['c1'], expectedSectionsEtag: v1.sectionsEtag, expectedGenerationRevision: 0 })
        .expect(503);
      expect(res.body).toEqual(UNAVAILABLE);
      expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(await playbook(who)).toEqual(v1);
      expect((await getGroup(who, group.id)).status).toBe('open');
      // Reads still work on the disabled instance.
      expect((await get(who, PLAYBOOK, () => off).expect(200)).body).toEqual(v1);
    });
  });

  describe('conversation tests and publishing', () => {
    const publish = (who: Tenant, version: unknown, confirm: unknown = CONFIRM) =>
      post(who, JOBS, { version, confirm });
    const job = async (who: Tenant, id: string): Promise<PublishJob> =>
      (await get(who, `${JOBS}/${id}`).expect(200)).body as PublishJob;
    const waitForJob = (who: Tenant, id: string): Promise<PublishJob> =>
      readUntil(
        () => job(who, id),
        (last) => last.status === 'succeeded' || last.status === 'failed',
      );
    const startPublish = async (who: Tenant, version: number): Promise<PublishJob> => {
      const res = await publish(who, version).expect(202);
      const body = res.body as PublishJob;
      expect(res.headers.location).toBe(`${JOBS}/${body.jobId}`);
      return body;
    };

    const GOOD: Section[] = [
      { key: 'greeting', title: 'Greeting', content: 'Hello! Welcome to Acme.' },
      { key: 'pricing', title: 'Pricing', content: 'Plans start at $10.' },
    ];
    const TESTS_BODY = {
      tests: [
        { name: 'greets-with-welcome', sectionKey: 'greeting', mustContain: ['WELCOME'] },
        { name: 'no-guarantees', mustNotContain: ['guarantee'] },
      ],
    };

    it('PUT conversation-tests returns the tests with defaults; scope agent:publish', async () => {
      const who = await t.createTenant();
      const res = await put(who, TESTS, TESTS_BODY).expect(200);
      expect(res.body).toEqual({
        tests: [
          { name: 'greets-with-welcome', sectionKey: 'greeting', mustContain: ['WELCOME'], mustNotContain: [] },
          { name: 'no-guarantees', sectionKey: null, mustContain: [], mustNotContain: ['guarantee'] },
        ],
      });
      const writer: Tenant = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['playbook:write', 'playbook:read']),
      };
      expect((await put(writer, TESTS, TESTS_BODY).expect(403)).body).toEqual(FORBIDDEN);
      expect((await request(t.server).put(TESTS).send(TESTS_BODY).expect(401)).body).toEqual(UNAUTHORIZED);
      expect(detailOf(await put(who, TESTS, { tests: [{ sectionKey: 'x' }] }).expect(422))).toEqual([
        expect.objectContaining({ loc: ['body', 'tests', 0, 'name'], type: 'missing' }),
      ]);
    });

    it('POST publish-jobs: confirm must be the literal (422), an unknown version is a 409, scope agent:publish', async () => {
      const who = await t.createTenant();
      await putSections(who, GOOD);
      const wrong = await publish(who, 1, 'yes').expect(422);
      expect(detailOf(wrong)).toEqual([
        {
          type: 'literal_error',
          loc: ['body', 'confirm'],
          msg: "Input should be 'publish-to-production'",
          input: 'yes',
          ctx: { expected: "'publish-to-production'" },
        },
      ]);
      expect(detailOf(await post(who, JOBS, { version: 1 }).expect(422))).toEqual([
        expect.objectContaining({ type: 'missing', loc: ['body', 'confirm'] }),
      ]);
      expect((await publish(who, 2).expect(409)).body).toEqual(CONFLICT);
      const empty = await t.createTenant();
      expect((await publish(empty, 1).expect(409)).body).toEqual(CONFLICT);
      const writer: Tenant = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['playbook:write', 'playbook:read']),
      };
      expect((await publish(writer, 1).expect(403)).body).toEqual(FORBIDDEN);
      expect((await get(who, AGENT).expect(200)).body).toMatchObject({ productionVersion: null });
    });

    it('publishes behind the tests: success, failures leave production unchanged, rollback to an older version', async () => {
      const who = await t.createTenant();
      const org = who.organizationId;
      await put(who, TESTS, TESTS_BODY).expect(200);
      expect((await putSections(who, GOOD)).version).toBe(1);

      // v1 passes (mustContain is case-insensitive: "WELCOME" in "Welcome").
      const before = Date.now();
      const queued = await startPublish(who, 1);
      expect(queued).toEqual({
        jobId: expect.stringMatching(UUID),
        status: 'queued',
        requestedVersion: 1,
        links: linksFor(org, false),
        createdAt: expect.stringMatching(ISO_MS_Z),
        updatedAt: expect.stringMatching(ISO_MS_Z),
        errorCode: null,
        errorMessage: null,
        productionLink: null,
        completedAt: null,
      });
      // Retry-After on the same response while not terminal, and none once terminal (no race: one response).
      const firstPoll = await get(who, `${JOBS}/${queued.jobId}`).expect(200);
      const firstStatus = (firstPoll.body as PublishJob).status;
      if (firstStatus === 'queued' || firstStatus === 'running')
        expect(firstPoll.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      else expect(firstPoll.headers['retry-after']).toBeUndefined();
      const ok1 = await waitForJob(who, queued.jobId);
      expect(ok1).toEqual({
        ...queued,
        status: 'succeeded',
        links: linksFor(org, true),
        updatedAt: expect.stringMatching(ISO_MS_Z),
        productionLink: `${t.config.agentBaseUrl}/live/${org}`,
        completedAt: expect.stringMatching(ISO_MS_Z),
      });
      expect(ok1.productionLink).toBe(ok1.links.production.url);
      expect(Date.parse(ok1.completedAt as string)).toBeGreaterThanOrEqual(Date.parse(ok1.createdAt));
      expect(Date.parse(ok1.createdAt)).toBeGreaterThanOrEqual(before - 2000);
      expect((await get(who, AGENT).expect(200)).body).toEqual({
        stagingVersion: 1,
        productionVersion: 1,
        links: linksFor(org, true),
      });
      expect(await playbook(who)).toMatchObject({ version: 1, productionVersion: 1, links: linksFor(org, true) });

      // v2 fails mustNotContain (case-insensitive: "Guarantee").
      const v2: Section[] = [GOOD[0], { ...GOOD[1], content: 'We Guarantee the lowest price.' }];
      expect((await putSections(who, v2)).version).toBe(2);
      const failed2 = await waitForJob(who, (await startPublish(who, 2)).jobId);
      expect(failed2).toMatchObject({
        status: 'failed',
        requestedVersion: 2,
        errorCode: 'conversation_tests_failed',
        productionLink: null,
        links: linksFor(org, true),
      });
      expect(failed2.completedAt).toMatch(ISO_MS_Z);
      expect(failed2.errorMessage).toContain('no-guarantees');
      expect(failed2.errorMessage).not.toContain('greets-with-welcome');
      expect((await get(who, AGENT).expect(200)).body).toEqual({
        stagingVersion: 2,
        productionVersion: 1,
        links: linksFor(org, true),
      });

      // v3 lacks the tested section (fails) and no longer mentions guarantees.
      const v3: Section[] = [{ key: 'hello', title: 'Hello', content: 'Welcome!' }, GOOD[1]];
      expect((await putSections(who, v3)).version).toBe(3);
      const failed3 = await waitForJob(who, (await startPublish(who, 3)).jobId);
      expect(failed3).toMatchObject({
        status: 'failed',
        requestedVersion: 3,
        errorCode: 'conversation_tests_failed',
        productionLink: null,
      });
      expect(failed3.errorMessage).toContain('greets-with-welcome');
      expect(failed3.errorMessage).not.toContain('no-guarantees');

      // v4 misses the mustContain phrase and has the forbidden one: both named.
      const v4: Section[] = [
        { ...GOOD[0], content: 'Hi.' },
        { ...GOOD[1], content: 'GUARANTEED results' },
      ];
      expect((await putSections(who, v4)).version).toBe(4);
      const failed4 = await waitForJob(who, (await startPublish(who, 4)).jobId);
      expect(failed4.status).toBe('failed');
      expect(failed4.errorMessage).toContain('greets-with-welcome');
      expect(failed4.errorMessage).toContain('no-guarantees');
      expect(await playbook(who)).toMatchObject({ version: 4, productionVersion: 1 });

      // v5 passes; then publishing the older v1 switches production back.
      const v5: Section[] = [{ ...GOOD[0], content: 'welcome back!' }];
      expect((await putSections(who, v5)).version).toBe(5);
      expect((await waitForJob(who, (await startPublish(who, 5)).jobId)).status).toBe('succeeded');
      expect((await get(who, AGENT).expect(200)).body).toMatchObject({ stagingVersion: 5, productionVersion: 5 });
      const back = await waitForJob(who, (await startPublish(who, 1)).jobId);
      expect(back).toMatchObject({
        status: 'succeeded',
        requestedVersion: 1,
        productionLink: `${t.config.agentBaseUrl}/live/${org}`,
        errorCode: null,
        errorMessage: null,
      });
      expect((await get(who, AGENT).expect(200)).body).toEqual({
        stagingVersion: 5,
        productionVersion: 1,
        links: linksFor(org, true),
      });

      // The earlier failed jobs are unchanged.
      expect(await job(who, failed2.jobId)).toEqual(failed2);
    });

    it('poll: ETag, 304 with If-None-Match, Retry-After while queued; 404 for unknown or other-org jobs', async () => {
      const who = await t.createTenant();
      await putSections(who, GOOD);
      // Hold the organization's publish turn so the job deterministically stays queued.
      const runner = t.app.get(DataSource).createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      let queuedEtag: string;
      let jobId: string;
      try {
        await lockNames(runner.manager, [`publish:${who.organizationId}`]);
        jobId = (await startPublish(who, 1)).jobId;
        const res = await get(who, `${JOBS}/${jobId}`).expect(200);
        expect(res.body).toMatchObject({ jobId, status: 'queued' });
        expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        queuedEtag = res.headers.etag as string;
        expect(queuedEtag).toMatch(/^(W\/)?".+"$/);
        const notModified = await get(who, `${JOBS}/${jobId}`).set('If-None-Match', queuedEtag).expect(304);
        expect(notModified.text ?? '').toBe('');
        expect(notModified.headers.etag).toBe(queuedEtag);
        // A non-matching tag gets the full job.
        expect((await get(who, `${JOBS}/${jobId}`).set('If-None-Match', '"nope"').expect(200)).body).toMatchObject({
          jobId,
          status: 'queued',
        });
      } finally {
        await runner.commitTransaction();
        await runner.release();
      }
      const done = await waitForJob(who, jobId);
      expect(done.status).toBe('succeeded');
      // Changed since the queued ETag: a full 200 with a new ETag, no Retry-After once terminal.
      const fresh = await get(who, `${JOBS}/${jobId}`).set('If-None-Match', queuedEtag).expect(200);
      expect(fresh.body).toEqual(done);
      const doneEtag = fresh.headers.etag as string;
      expect(doneEtag).toBeDefined();
      expect(doneEtag).not.toBe(queuedEtag);
      expect(fresh.headers['retry-after']).toBeUndefined();
      const again = await get(who, `${JOBS}/${jobId}`).set('If-None-Match', doneEtag).expect(304);
      expect(again.headers.etag).toBe(doneEtag);
      expect(again.text ?? '').toBe('');
      expect(Object.keys(again.body as object)).toHaveLength(0);

      // 404s and scope.
      const other = await t.createTenant();
      expect((await get(who, `${JOBS}/${UNKNOWN_ID}`).expect(404)).body).toEqual(JOB_NOT_FOUND);
      expect((await get(other, `${JOBS}/${jobId}`).expect(404)).body).toEqual(JOB_NOT_FOUND);
      expect((await get(other, `${JOBS}/${jobId}`).set('If-None-Match', doneEtag).expect(404)).body).toEqual(
        JOB_NOT_FOUND,
      );
      const writer: Tenant = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['playbook:write', 'playbook:read']),
      };
      expect((await get(writer, `${JOBS}/${jobId}`).expect(403)).body).toEqual(FORBIDDEN);
      expect((await request(t.server).get(`${JOBS}/${jobId}`).expect(401)).body).toEqual(UNAUTHORIZED);

      // 304s do not consume the request-rate budget.
      const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
      try {
        const fresher: Tenant = {
          organizationId: who.organizationId,
          key: await limited.createKey(who.organizationId, ['agent:publish']),
        };
        const poll = () => get(fresher, `${JOBS}/${jobId}`, () => limited);
        const firstPoll = await poll().expect(200);
        expect(firstPoll.headers['x-ratelimit-limit']).toBe('5');
        expect(firstPoll.headers['x-ratelimit-remaining']).toBe('4');
        for (let i = 0; i < 5; i += 1) await poll().set('If-None-Match', doneEtag).expect(304);
        const after = await poll().expect(200);
        expect(after.headers['x-ratelimit-remaining']).toBe('3');
        for (const remaining of ['2', '1', '0'])
          expect((await poll().expect(200)).headers['x-ratelimit-remaining']).toBe(remaining);
        const refused = await poll().expect(429);
        expect(refused.body).toEqual({ detail: 'Rate limit or organization quota exceeded.' });
      } finally {
        await limited.close();
      }
    });
  });
});
