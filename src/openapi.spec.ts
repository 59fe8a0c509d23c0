import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    output = execFileSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format=json', '--config', join(ROOT, 'redocly.yaml')], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
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
    execFileSync(join(ROOT, 'node_modules/.bin/openapi-typescript'), [COMMITTED, '--output', out], { cwd: ROOT, stdio: 'ignore' });
    expect(readFileSync(join(ROOT, 'client/schema.d.ts'), 'utf8') === readFileSync(out, 'utf8')).toBe(true);
  }, 60_000);

  it('is what docs/api-reference.html, the rendered reference, was built from (run `npm run openapi`)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'openapi-docs-')), 'api-reference.html');
    execFileSync(join(ROOT, 'node_modules/.bin/redocly'), ['build-docs', COMMITTED, '--output', out], { cwd: ROOT, stdio: 'ignore' });
    expect(readFileSync(join(ROOT, 'docs/api-reference.html'), 'utf8') === readFileSync(out, 'utf8')).toBe(true);
  }, 60_000);

  it('passes redocly lint with no error and only the warnings redocly.yaml justifies', () => {
    const problems = lint(COMMITTED);
    expect(problems.filter((p) => p.severity === 'error').map(describeProblem)).toEqual([]);
    expect(problems.filter((p) => p.severity === 'warn').map(describeProblem).sort()).toEqual([...ACCEPTED_WARNINGS].sort());
  }, 60_000);
});
