import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The boundary rules of .dependency-cruiser.cjs (run by `npm run lint`) catch what they promise:
 * a small project laid out like src/ with one violation of each rule must fail each rule, and the
 * same project without them must pass.
 */
const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'node20', moduleResolution: 'node16', strict: true } }),
  'src/common/util.ts': 'export const one = 1;\n',
  'src/modules/links/index.ts': "export { LinksService } from './links.service';\n",
  'src/modules/links/links.service.ts':
    "import { one } from '../../common/util';\nexport class LinksService { n = one; }\n",
  'src/modules/jobs/index.ts': "export { JobsService } from './jobs.service';\n",
  'src/modules/jobs/jobs.service.ts': 'export class JobsService {}\n',
  'src/modules/reports/reports.service.ts':
    "import { LinksService } from '../links';\nexport class ReportsService { links = new LinksService(); }\n",
};

const VIOLATIONS: Record<string, string> = {
  'src/common/knows-links.ts': "import { LinksService } from '../modules/links';\nexport const s = LinksService;\n",
  'src/config/knows-links.ts':
    "import { LinksService } from '../modules/links/links.service';\nexport const s = LinksService;\n",
  'src/modules/reports/deep-import.ts':
    "import { LinksService } from '../links/links.service';\nexport const s = LinksService;\n",
  'src/modules/jobs/knows-links.ts': "import { LinksService } from '../links';\nexport const s = LinksService;\n",
  'src/modules/custom-links/index.ts': 'export const x = 1;\n',
  'src/modules/jobs/knows-job-type.ts': "import { x } from '../custom-links';\nexport const y = x;\n",
  'src/modules/reports/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'src/modules/reports/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
  'src/modules/reports/uses-test.ts':
    "import { helper } from '../../../test/support/helper';\nexport const h = helper;\n",
  'test/support/helper.ts': 'export const helper = 1;\n',
};

/** Runs the repository's depcruise with the repository's rules over `files`, as `npm run lint` does. */
function violatedRules(files: Record<string, string>): string[] {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const depcruise = (outputType: string) =>
      spawnSync(
        process.execPath,
        [DEPCRUISE, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', outputType],
        { cwd: root, encoding: 'utf8' },
      );
    const output = JSON.parse(depcruise('json').stdout) as { summary: { violations: { rule: { name: string } }[] } };
    // The exit status of the command `npm run lint` runs is what fails CI: non-zero exactly when something is violated.
    expect(depcruise('err').status !== 0).toBe(output.summary.violations.length > 0);
    return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('module boundary rules (.dependency-cruiser.cjs)', () => {
  it('pass a project that keeps them', () => {
    expect(violatedRules(CLEAN)).toEqual([]);
  });

  it('catch a cycle, common or config importing a module, a deep import, jobs importing a job type, and test code in src', () => {
    expect(violatedRules({ ...CLEAN, ...VIOLATIONS })).toEqual([
      'common-knows-no-module',
      'jobs-knows-no-job-type',
      'module-public-api-only',
      'no-circular',
      'no-test-code-in-src',
    ]);
  });
});
