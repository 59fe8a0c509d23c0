import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SCOPES } from './common/auth/scopes';
import { WEBHOOK_EVENT_TYPES } from './modules/webhooks/webhook-event-types';

/**
 * The prose documentation against the code (issue 29 point 5): docs/api.md names every operation of
 * openapi.json in a §4 table row, every webhook event type in §16.1, and every scope in §5.3; the
 * README's scope list names every scope; relative links in the Markdown files resolve to a file and,
 * with a #fragment, to one of its headings; a section named in prose or a comment (README
 * "Configuration") exists.
 */

const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const API_MD = read('docs/api.md');
const README = read('README.md');

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Served by the service but not operations of the document it serves (docs/api.md §1.2). */
const SERVED_OUTSIDE_THE_DOCUMENT = ['GET /api/v1/openapi.json', 'GET /docs'];

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, unknown>;
}

/** The text from the heading that starts with `heading` to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${heading} `) || line === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = heading.indexOf(' ') > 0 ? heading.indexOf(' ') : heading.length;
  const end = lines.findIndex((line, i) => i > start && /^#{1,6} /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The backticked texts of the first cell of every table row of `markdown`. */
function firstCells(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
}

/** `METHOD /path` of every operation of an OpenAPI document. */
function operations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('docs/api.md against openapi.json', () => {
  const document = JSON.parse(read('openapi.json')) as OpenApiDocument;
  const endpointRows = firstCells(section(API_MD, '## 4.')).filter((cell) => /^[A-Z]+ \//.test(cell));

  it('has a §4 table row starting with `METHOD /path` for every operation', () => {
    const all = operations(document);
    expect(all.length).toBeGreaterThanOrEqual(55);
    expect(all.filter((operation) => !endpointRows.includes(operation))).toEqual([]);
  });

  it('lists in §4 no operation the document does not have', () => {
    const all = new Set([...operations(document), ...SERVED_OUTSIDE_THE_DOCUMENT]);
    expect(endpointRows.filter((operation) => !all.has(operation))).toEqual([]);
  });

  it("describes every webhook event type in §16.1, and every entry of the document's webhooks section in §16", () => {
    const types = firstCells(section(API_MD, '### 16.1'));
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !types.includes(type))).toEqual([]);
    expect(types.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
    const webhooks = section(API_MD, '## 16.');
    expect(Object.keys(document.webhooks ?? {}).filter((name) => !webhooks.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('scopes in the docs', () => {
  it('docs/api.md §5.3 has one row per scope of the code, and no other', () => {
    expect(firstCells(section(API_MD, '### 5.3')).sort()).toEqual([...SCOPES].sort());
  });

  it('README lists every scope of the code, and no other', () => {
    const list = README.split('\n\n').find((paragraph) => paragraph.startsWith('Scopes: '));
    expect(list).toBeDefined();
    expect([...list!.matchAll(/`([^`]+)`/g)].map((match) => match[1]).sort()).toEqual([...SCOPES].sort());
  });
});

/** Markdown files a reader follows links in: the root's, docs/, deploy/ and bench/. */
function markdownFiles(): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(ROOT, folder))
      .filter((name) => name.endsWith('.md') && statSync(join(ROOT, folder, name)).isFile())
      .map((name) => join(folder, name));
  return ['.', 'docs', 'deploy', 'bench'].flatMap(inFolder);
}

/** Markdown without fenced code blocks and inline code, where brackets are not links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const text = match[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** Every link of `file` that does not resolve, as `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const markdown = read(file);
  const broken: string[] = [];
  for (const [, target] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, fragment] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURI(path));
    if (!existsSync(resolved)) {
      broken.push(`${file}: ${target} (no file ${relative(ROOT, resolved)})`);
      continue;
    }
    if (
      fragment !== undefined &&
      resolved.endsWith('.md') &&
      !anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment).toLowerCase())
    ) {
      broken.push(`${file}: ${target} (no heading #${fragment})`);
    }
  }
  return broken;
}

describe('links in the Markdown files', () => {
  it('finds the README and the docs', () => {
    expect(markdownFiles()).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'docs/DECISIONS.md', 'deploy/README.md']),
    );
  });

  it('resolve: every relative link names an existing file, and its #fragment a heading of it', () => {
    expect(markdownFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it('computes anchors as GitHub does', () => {
    expect([
      ...anchors(
        '# 4. Endpoints\n## Sync and webhooks\n### 6.1 Link opens: GET /l/{slug}\n## `npm run` and more\n## Sync and webhooks\n',
      ),
    ]).toEqual([
      '4-endpoints',
      'sync-and-webhooks',
      '61-link-opens-get-lslug',
      'npm-run-and-more',
      'sync-and-webhooks-1',
    ]);
  });
});

/** Where `text` names a place of `markdown`: a heading, a table row's first cell or a bold lead that starts with it. */
function names(markdown: string, text: string): boolean {
  return markdown
    .split('\n')
    .some((line) =>
      [/^#{1,6} /, /^\| /, /^(- )?\*\*/].some((start) => start.test(line) && line.replace(start, '').startsWith(text)),
    );
}

describe('sections named in prose and comments', () => {
  // `README "Configuration"`, `docs/operations.md, "SIGTERM (rollout)"`: in every tracked text file.
  const pointer = /\b(README|[\w./-]+\.md),? "([^"\n]+)"/g;
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(
      (file) =>
        /(\.(md|ts|js|cjs|mjs|ya?ml|json)|Dockerfile)$/.test(file) &&
        !/(^|\/)(package-lock\.json|openapi\.json)$/.test(file) &&
        existsSync(join(ROOT, file)),
    );

  it('exist: the file, and in it a heading, table row or bold lead that starts with the name', () => {
    const missing: string[] = [];
    for (const file of files) {
      for (const [, target, text] of read(file).matchAll(pointer)) {
        const path = target === 'README' ? 'README.md' : target;
        if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${target} (no file)`);
        else if (!names(read(path), text)) missing.push(`${file}: ${target} "${text}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('README against the repository', () => {
  it('names every module of src/modules in the architecture table', () => {
    const modules = readdirSync(join(ROOT, 'src/modules')).filter((name) =>
      statSync(join(ROOT, 'src/modules', name)).isDirectory(),
    );
    const table = section(README, '## Architecture')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]));
    expect(modules.filter((name) => !table.includes(name))).toEqual([]);
  });

  it('has every npm script that runs the built tree build it first, so it works on a fresh clone', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const builds = (command: string | undefined) =>
      command !== undefined && /^npm run (-s )?build(:clean)?( &&|$)/.test(command);
    const unbuilt = Object.entries(scripts)
      .filter(([name, command]) => !name.startsWith('pre') && /\bdist\//.test(command))
      .filter(([name, command]) => !builds(command) && !builds(scripts[`pre${name}`]))
      .map(([name]) => name);
    expect(unbuilt).toEqual([]);
  });
});
