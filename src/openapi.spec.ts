import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from './modules/webhooks';
import { generateOpenApiJson } from './openapi';

const ROOT = join(__dirname, '..');
const COMMITTED = join(ROOT, 'openapi.json');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  location: { pointer: string }[];
}

/** The warnings redocly.yaml lists and justifies, as `rule at pointer`. */
const ACCEPTED_WARNINGS = [
  'no-server-example.com at #/servers/0/url',
  'operation-2xx-response at #/paths/~1l~1{slug}/get/responses',
];

function lint(file: string): LintProblem[] {
  let output: string;
  try {
    output = execFileSync(
      join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', file, '--format=json', '--config', join(ROOT, 'redocly.yaml')],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch (error) {
    // redocly exits 1 when it reports an error; its report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(output) as { problems: LintProblem[] }).problems;
}

const describeProblem = (p: LintProblem) => `${p.ruleId} at ${p.location[0]?.pointer}`;

describe('openapi.json (the committed contract)', () => {
  it('is what the code generates (run `npm run openapi` after changing a route or a DTO)', async () => {
    const generated = await generateOpenApiJson();
    expect(readFileSync(COMMITTED, 'utf8') === generated).toBe(true);
  }, 60_000);

  it('is what client/schema.d.ts, the typed client, was generated from (run `npm run openapi`)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'openapi-client-')), 'schema.d.ts');
    execFileSync(join(ROOT, 'node_modules/.bin/openapi-typescript'), [COMMITTED, '--output', out], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    expect(readFileSync(join(ROOT, 'client/schema.d.ts'), 'utf8') === readFileSync(out, 'utf8')).toBe(true);
  }, 60_000);

  it('is what docs/api-reference.html, the rendered reference, was built from (run `npm run openapi`)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'openapi-docs-')), 'api-reference.html');
    execFileSync(join(ROOT, 'node_modules/.bin/redocly'), ['build-docs', COMMITTED, '--output', out], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    expect(readFileSync(join(ROOT, 'docs/api-reference.html'), 'utf8') === readFileSync(out, 'utf8')).toBe(true);
  }, 60_000);

  it('passes redocly lint with no error and only the warnings redocly.yaml justifies', () => {
    const problems = lint(COMMITTED);
    expect(problems.filter((p) => p.severity === 'error').map(describeProblem)).toEqual([]);
    expect(
      problems
        .filter((p) => p.severity === 'warn')
        .map(describeProblem)
        .sort(),
    ).toEqual([...ACCEPTED_WARNINGS].sort());
  }, 60_000);

  describe('what strict validators and generators read (issue 29)', () => {
    type Parameter = {
      name: string;
      in: string;
      style?: string;
      explode?: boolean;
      schema?: { type?: string; format?: string; anyOf?: { format?: string }[] };
    };
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      webhooks: Record<
        string,
        { post: { parameters: Parameter[]; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
      >;
      components: { schemas: Record<string, { properties?: Record<string, { enum?: string[]; $ref?: string }> }> };
    };
    const parameters = Object.values(document.paths).flatMap((path) =>
      Object.values(path).flatMap((operation) => operation.parameters ?? []),
    );

    it('is OpenAPI 3.1 with null as a type: no 3.0 `nullable` left', () => {
      expect(document.openapi).toBe('3.1.0');
      expect(readFileSync(COMMITTED, 'utf8')).not.toContain('"nullable"');
    });

    it('declares every multi-value query filter as a comma list (explode false)', () => {
      const lists = parameters.filter((p) => p.in === 'query' && p.schema?.type === 'array');
      expect(lists.map((p) => p.name).sort()).toEqual(
        expect.arrayContaining(['booked_status', 'buying_intent', 'qualification_status', 'status', 'type']),
      );
      expect(lists.filter((p) => p.style !== 'form' || p.explode !== false).map((p) => p.name)).toEqual([]);
    });

    it('declares timestamp filters as a date or a date-time', () => {
      const timestamps = parameters.filter((p) => p.in === 'query' && /(_from|_to|_since|^from|^to)$/.test(p.name));
      expect(timestamps.length).toBeGreaterThan(8);
      for (const p of timestamps)
        expect([p.name, p.schema?.anyOf?.map((s) => s.format)]).toEqual([p.name, ['date-time', 'date']]);
    });

    it('lists every webhook event type with its payload schema and the three signature headers', () => {
      expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
      for (const [type, { post }] of Object.entries(document.webhooks)) {
        expect(post.parameters.map((p) => [p.in, p.name])).toEqual([
          ['header', 'webhook-id'],
          ['header', 'webhook-timestamp'],
          ['header', 'webhook-signature'],
        ]);
        const name = post.requestBody.content['application/json'].schema.$ref.split('/').pop() as string;
        const payload = document.components.schemas[name];
        expect([type, payload.properties?.type?.enum]).toEqual([type, [type]]);
        expect(
          document.components.schemas[(payload.properties?.data?.$ref ?? '').split('/').pop() as string],
        ).toBeDefined();
      }
    });
  });
});
