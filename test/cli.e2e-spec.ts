import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../src/database/migrations';
import type {
  Account,
  CampaignEngagement,
  CampaignPage,
  LinkPage,
  PeoplePage,
  Playbook,
  SessionPage,
  SuggestionGroupPage,
  Transcript,
} from './support/api-types';
import { createDatabaseBefore, dropDatabase, ON_CITUS } from './support/databases';
import { foldNow } from './support/fold';
import { isolatedServices } from './support/isolated-database';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, eventually, type TestApp } from './support/test-app';

/**
 * The built admin CLI and the built entry point's config check (docs/api.md §15.3), run as the image runs
 * them. `npm run build` comes first (npm test and test:e2e do it).
 */

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist/src/cli.js');
const MAIN = join(ROOT, 'dist/src/main.js');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const API_KEY = /^sk_live_[0-9A-Za-z]{32}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built script with exactly `env` (plus PATH), from a directory without a .env file. */
function run(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The one JSON line a successful command prints. */
function output(result: Run): Record<string, unknown> {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = result.stdout.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

// Every command is a new Node process (about a second each on a busy machine).
jest.setTimeout(30_000);

let seq = 0;
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

describe('admin CLI (node dist/src/cli.js)', () => {
  let t: TestApp;
  let db: DataSource;
  // Key commands announce key changes to the API instances through Redis.
  const cli = (...args: string[]) =>
    run(CLI, args, { DATABASE_URL: process.env.DATABASE_URL ?? '', REDIS_URL: process.env.REDIS_URL ?? '' });

  beforeAll(async () => {
    if (!existsSync(CLI) || !existsSync(MAIN))
      throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
    // The default key cache (10 s): a revoked key is refused at once only because the CLI announces it.
    // No workers of its own (another spec's would deliver its webhooks): it folds what it reads with foldNow.
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const createOrg = async (name = uniqueName('CLI org')) => {
    const org = output(await cli('org:create', '--name', name));
    expect(org).toEqual({ id: expect.stringMatching(UUID), name });
    return org as { id: string; name: string };
  };
  const createKey = async (orgId: string, scopes: string, name?: string) => {
    const created = output(
      await cli('key:create', '--org', orgId, '--scopes', scopes, ...(name ? ['--name', name] : [])),
    );
    return created as { id: string; key: string; scopes: string[] };
  };

  it('org:create prints {id, name} and stores the organization', async () => {
    const name = uniqueName('Acme Corp');
    const org = await createOrg(name);
    expect(await db.query(`SELECT name FROM organizations WHERE id = $1`, [org.id])).toEqual([{ name }]);
  });

  it('key:create prints {id, key, scopes}; the key works against the API with exactly those scopes; only its SHA-256 is stored', async () => {
    const org = await createOrg();
    const label = uniqueName('ci key');
    const created = await createKey(org.id, 'custom_links:read,sessions:read', label);

    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      key: expect.stringMatching(API_KEY),
      scopes: ['custom_links:read', 'sessions:read'],
    });
    const rows = await db.query<
      {
        organization_id: string;
        name: string;
        prefix: string;
        key_hash: string;
        scopes: string[];
        revoked_at: Date | null;
      }[]
    >(`SELECT organization_id, name, prefix, key_hash, scopes, revoked_at FROM api_keys WHERE id = $1`, [created.id]);
    expect(rows).toEqual([
      {
        organization_id: org.id,
        name: label,
        prefix: created.key.slice(0, 12),
        key_hash: createHash('sha256').update(created.key).digest('hex'),
        scopes: ['custom_links:read', 'sessions:read'],
        revoked_at: null,
      },
    ]);

    // The key authenticates as the organization it was made for, with the scopes it was given.
    await request(t.server)
      .get('/api/v1/custom-link-campaigns')
      .set('Authorization', `Bearer ${created.key}`)
      .expect(200, { campaigns: [], total: 0, limit: 50, offset: 0, nextCursor: null });
    await request(t.server)
      .post('/api/v1/custom-link-campaigns')
      .set('x-api-key', created.key)
      .send({ name: uniqueName('No write') })
      .expect(403, { detail: 'API key does not include the required scope.' });
  });

  it('key:list shows each key with its prefix, never the key or its hash', async () => {
    const org = await createOrg();
    const first = await createKey(org.id, 'people:read', uniqueName('first'));
    const second = await createKey(org.id, 'agent:publish');
    await request(t.server).get('/api/v1/custom-link-campaigns').set('x-api-key', first.key).expect(403);

    const result = await cli('key:list', '--org', org.id);
    const listed = output(result);
    expect(listed).toEqual({
      organizationId: org.id,
      keys: [
        {
          id: first.id,
          name: expect.any(String),
          prefix: first.key.slice(0, 12),
          scopes: ['people:read'],
          createdAt: expect.stringMatching(ISO_MS_Z),
          lastUsedAt: expect.stringMatching(ISO_MS_Z),
          revokedAt: null,
        },
        {
          id: second.id,
          name: null,
          prefix: second.key.slice(0, 12),
          scopes: ['agent:publish'],
          createdAt: expect.stringMatching(ISO_MS_Z),
          lastUsedAt: null,
          revokedAt: null,
        },
      ],
    });
    for (const { key } of [first, second]) {
      expect(result.stdout).not.toContain(key);
      expect(result.stdout).not.toContain(key.slice(12));
      expect(result.stdout).not.toContain(createHash('sha256').update(key).digest('hex'));
    }
  });

  it('key:revoke sets revokedAt, the running API refuses the key within a second although it had it cached, and a second revoke keeps the first time', async () => {
    const org = await createOrg();
    const created = await createKey(org.id, 'custom_links:read');
    const call = () => request(t.server).get('/api/v1/custom-link-campaigns').set('x-api-key', created.key);
    await call().expect(200);
    await call().expect(200);

    const revoked = output(await cli('key:revoke', '--id', created.id));
    const exited = Date.now();
    expect(revoked).toMatchObject({
      id: created.id,
      prefix: created.key.slice(0, 12),
      revokedAt: expect.stringMatching(ISO_MS_Z),
    });
    expect(JSON.stringify(revoked)).not.toContain(created.key);
    await eventually(async () => (await call()).status === 401, 1000, 10);
    expect(Date.now() - exited).toBeLessThan(1000);
    await call().expect(401, { detail: 'API key required or invalid.' });

    const again = output(await cli('key:revoke', '--id', created.id));
    expect(again.revokedAt).toBe(revoked.revokedAt);
    const listed = output(await cli('key:list', '--org', org.id)) as {
      keys: { id: string; revokedAt: string | null }[];
    };
    expect(listed.keys).toEqual([expect.objectContaining({ id: created.id, revokedAt: revoked.revokedAt })]);
  });

  it('refuses an unknown scope with exit code 2 and a JSON error on stderr, creating nothing', async () => {
    const org = await createOrg();
    const result = await cli('key:create', '--org', org.id, '--scopes', 'custom_links:read,nope:write');

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const error = JSON.parse(lines[0]) as { error: unknown };
    expect(error).toEqual({ error: expect.stringContaining('nope:write') });
    expect(await db.query(`SELECT id FROM api_keys WHERE organization_id = $1`, [org.id])).toEqual([]);
  });

  it.each([
    ['an unknown command', ['org:delete', '--name', 'x'], 'usage'],
    ['a missing option', ['org:create'], '--name'],
    ['an unknown option', ['org:create', '--name', 'x', '--colour', 'red'], 'colour'],
    ['an organization id that is not a UUID', ['key:list', '--org', 'acme'], '--org'],
    [
      'an unknown organization',
      ['key:create', '--org', '0190a000-0000-7000-8000-000000000000', '--scopes', 'people:read'],
      'not found',
    ],
    ['an unknown key', ['key:revoke', '--id', '0190a000-0000-7000-8000-000000000000'], 'not found'],
  ])('answers %s with exit code 2 and {"error"} on stderr', async (_case, args, mention) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr) as { error: string };
    expect(Object.keys(error)).toEqual(['error']);
    expect(error.error).toContain(mention);
  });

  it("retention:run --org applies the organization's setting and prints its counts; without --org, every organization's with periods", async () => {
    // A database of its own: without --org the run reaches every organization, and on the run's
    // shared database that is every other spec's too (their data, their locks).
    const isolated = await isolatedServices('cli_retention');
    const own = await createTestApp(isolated.env);
    try {
      await retentionRunOn(own, { ...isolated.env, REDIS_URL: process.env.REDIS_URL ?? '' });
    } finally {
      await own.close();
      await isolated.drop();
    }
  }, 90_000);

  async function retentionRunOn(app: TestApp, env: Record<string, string>): Promise<void> {
    const org = await app.createTenant();
    const key = org.key;
    const day = 86_400_000;
    const ids = { recent: randomUUID(), old: randomUUID() };
    for (const [role, days] of [
      ['recent', 2],
      ['old', 400],
    ] as const) {
      const start = new Date(Date.now() - days * day).toISOString();
      const body = sessionBody({
        startTime: start,
        endTime: start,
        qualificationAssessedAt: start,
        transcript: { entries: [{ speaker: 'agent', text: 'Hello.', timestamp: null, sequenceNumber: 1 }] },
      });
      await ingest(app.server, key, ids[role], body).expect(200);
    }
    await request(app.server)
      .put('/api/v1/settings/retention')
      .set('x-api-key', key)
      .send({ transcriptDays: 1, sessionDays: 365, eventDays: null })
      .expect(200);

    const counts = { busy: false, transcripts: 2, sessions: 1, sessionReferences: 0, events: 0, partitions: 0 };
    expect(output(await run(CLI, ['retention:run', '--org', org.organizationId], env))).toEqual({
      organizationId: org.organizationId,
      ...counts,
    });
    await request(app.server).get(`/api/v1/sessions/${ids.old}`).set('x-api-key', key).expect(404);
    await request(app.server).get(`/api/v1/sessions/${ids.recent}`).set('x-api-key', key).expect(200);
    await request(app.server).get(`/api/v1/sessions/${ids.recent}/transcript`).set('x-api-key', key).expect(404);

    const all = output(await run(CLI, ['retention:run'], env));
    expect(all).toEqual({
      organizations: [{ organizationId: org.organizationId, ...counts, transcripts: 0, sessions: 0 }],
    });
    const unknown = await run(CLI, ['retention:run', '--org', randomUUID()], env);
    expect({ code: unknown.code, error: (JSON.parse(unknown.stderr) as { error: string }).error }).toEqual({
      code: 2,
      error: expect.stringContaining('not found'),
    });
  }

  it('demo:seed fills a new organization with sessions, people, accounts, transcripts and Custom Links, and reseeding adds nothing', async () => {
    const env = {
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      REDIS_URL: process.env.REDIS_URL ?? '',
      QUEUE_PREFIX: process.env.QUEUE_PREFIX ?? '',
    };
    const seeded = output(await run(CLI, ['demo:seed'], env));
    expect(seeded).toEqual({
      organizationId: expect.stringMatching(UUID),
      key: expect.stringMatching(API_KEY),
      scopes: expect.any(Array),
      sessions: expect.any(Number),
      people: expect.any(Number),
      customLinks: expect.any(Number),
      events: expect.any(Number),
    });
    const auth = { Authorization: `Bearer ${seeded.key as string}` };
    const sessions = await request(t.server).get('/api/v1/sessions?limit=200').set(auth).expect(200);
    const list = sessions.body as SessionPage;
    expect(list.pagination.total).toBe(seeded.sessions);
    expect(new Set(list.sessions.map((s) => s.qualificationStatus))).toEqual(new Set(['qualified', 'unqualified']));
    expect(list.sessions.some((s) => s.bookedStatus === 'booked')).toBe(true);
    const people = await request(t.server).get('/api/v1/people?limit=200').set(auth).expect(200);
    const persons = (people.body as PeoplePage).people;
    expect(persons).toHaveLength(seeded.people as number);
    expect(persons.some((p) => p.accountDomain === null)).toBe(true);
    const domains = persons.map((p) => p.accountDomain).filter((d): d is string => d !== null);
    const account = await request(t.server).get(`/api/v1/accounts/${domains[0]}`).set(auth).expect(200);
    expect((account.body as Account).totalUsers).toBe(domains.filter((d) => d === domains[0]).length);
    const withTranscript = await Promise.all(
      list.sessions.map((s) => request(t.server).get(`/api/v1/sessions/${s.id}/transcript`).set(auth)),
    );
    expect(withTranscript.some((r) => r.status === 200 && (r.body as Transcript).total > 0)).toBe(true);

    const links = (await request(t.server).get('/api/v1/custom-links?limit=200').set(auth).expect(200))
      .body as LinkPage;
    expect(links.total).toBe(seeded.customLinks);
    expect(links.total).toBeGreaterThan(0);
    const campaigns = (await request(t.server).get('/api/v1/custom-link-campaigns').set(auth).expect(200))
      .body as CampaignPage;
    expect(campaigns.campaigns).toEqual([
      expect.objectContaining({ name: 'Demo outreach', customLinkCount: seeded.customLinks }),
    ]);
    // The seeded events are appended to the event log: read the campaign once they are folded.
    await foldNow(t.app, seeded.organizationId as string);
    const engagement = (
      await request(t.server)
        .get(`/api/v1/custom-link-campaigns/${campaigns.campaigns[0].id}/engagement`)
        .set(auth)
        .expect(200)
    ).body as CampaignEngagement;
    expect(engagement.openedLinkCount).toBeGreaterThan(0);
    expect(engagement.engagedLinkCount).toBeGreaterThan(0);
    expect(engagement.botScannedOnlyLinkCount).toBeGreaterThan(0);
    const playbook = (await request(t.server).get('/api/v1/playbook').set(auth).expect(200)).body as Playbook;
    expect(playbook.version).toBe(1);
    expect(playbook.sections).toHaveLength(3);
    expect(
      ((await request(t.server).get('/api/v1/playbook/suggestions').set(auth).expect(200)).body as SuggestionGroupPage)
        .total,
    ).toBe(1);

    const again = output(await run(CLI, ['demo:seed', '--org', seeded.organizationId as string], env));
    expect(again.sessions).toBe(seeded.sessions);
    expect(again.customLinks).toBe(seeded.customLinks);
    expect(((await request(t.server).get('/api/v1/playbook').set(auth).expect(200)).body as Playbook).version).toBe(1);
    expect(((await request(t.server).get('/api/v1/custom-links').set(auth).expect(200)).body as LinkPage).total).toBe(
      seeded.customLinks,
    );
    const after = await request(t.server).get('/api/v1/sessions').set(auth).expect(200);
    expect((after.body as SessionPage).pagination.total).toBe(seeded.sessions);
  }, 30_000);
});

/** The problems of an invalid configuration: one JSON line each on stderr (`msg` "Invalid configuration"). */
function problemsOf(stderr: string): string[] {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: string; msg: string; problem: string });
  expect(lines.map((line) => [line.level, line.msg])).toEqual(lines.map(() => ['fatal', 'Invalid configuration']));
  return lines.map((line) => line.problem);
}

describe('configuration check at start', () => {
  it('node dist/src/main.js exits non-zero with one line per bad variable, naming each', async () => {
    const result = await run(MAIN, [], { PORT: 'abc', RATE_LIMIT_PER_MINUTE: '0' });

    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stdout).toBe('');
    const lines = problemsOf(result.stderr);
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.includes('PORT='))).toMatch(/PORT="abc".*integer/);
    expect(lines.find((line) => line.includes('RATE_LIMIT_PER_MINUTE='))).toMatch(
      /RATE_LIMIT_PER_MINUTE="0".*between 1 and/,
    );
  });

  it('the CLI checks its configuration the same way', async () => {
    const result = await run(CLI, ['org:create', '--name', 'x'], {
      DATABASE_URL: 'mysql://db/engagement',
      LOG_LEVEL: 'loud',
    });

    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    const lines = problemsOf(result.stderr);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('DATABASE_URL="mysql://db/engagement"');
    expect(lines[1]).toContain('LOG_LEVEL="loud"');
  });
});

/**
 * The schema commands as a release's migration Job runs them: `migration:run` names the migrations it
 * applied (on a Citus cluster with what the distribution step then did) and applies none the second
 * time; `migration:revert` names the migration it undid, which the next run applies again.
 */
describe('migration:run and migration:revert', () => {
  const pending = MIGRATIONS.slice(-2).map((migration) => migration.name);
  const name = `engagement_migration_cli_${process.pid}`;
  let url: string;
  let db: Client;
  const cli = async (command: string) => output(await run(CLI, [command], { DATABASE_URL: url }));
  const lastRun = async () =>
    (await db.query<{ name: string }>(`SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1`)).rows[0]
      .name;

  beforeAll(async () => {
    url = await createDatabaseBefore(name, pending[0]);
    db = new Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await dropDatabase(name);
  });

  it('migration:run applies the pending migrations and names them; run again, it applies none', async () => {
    const first = await cli('migration:run');
    expect(first.applied).toEqual(pending);
    expect(await lastRun()).toBe(pending[1]);
    const again = await cli('migration:run');
    if (!ON_CITUS) {
      expect(first).toEqual({ applied: pending });
      expect(again).toEqual({ applied: [] });
      return;
    }
    // On Citus the tables they created are distributed before the command ends, and only once.
    expect((first.distribution as { distributed: string[] }).distributed.length).toBeGreaterThan(0);
    expect(again).toEqual({
      applied: [],
      distribution: { distributed: [], referenceTables: [], alreadyDistributed: expect.any(Array) as unknown },
    });
  });

  it('migration:revert names the migration it undid; the next run applies it again', async () => {
    expect(await cli('migration:revert')).toEqual({ reverted: pending[1] });
    expect(await lastRun()).toBe(pending[0]);
    expect((await cli('migration:run')).applied).toEqual([pending[1]]);
    expect(await lastRun()).toBe(pending[1]);
  });
});
