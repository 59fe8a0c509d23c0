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
  'package.json': JSON.stringify({ devDependencies: { devtool: '1.0.0' } }),
  'node_modules/devtool/package.json': JSON.stringify({ name: 'devtool', main: 'index.js', types: 'index.d.ts' }),
  'node_modules/devtool/index.js': "exports.tool = 'tool';\n",
  'node_modules/devtool/index.d.ts': 'export type Tool = string;\nexport declare const tool: Tool;\n',
  'src/common/errors/typed.ts': "import type { Tool } from 'devtool';\nexport const name: Tool = 'typed';\n",
  'src/common/errors/util.ts': 'export const one = 1;\n',
  'src/common/redis/client.ts': "import { one } from '../errors/util';\nexport const two = one + 1;\n",
  'src/common/http/headers.ts': "import { two } from '../redis/client';\nexport const three = two + 1;\n",
  'src/common/validation/check.ts': "import { three } from '../http/headers';\nexport const four = three + 1;\n",
  'src/common/limits/limit.ts': "import { four } from '../validation/check';\nexport const five = four + 1;\n",
  'src/common/pipeline/pipeline.ts': "import { five } from '../limits/limit';\nexport const six = five + 1;\n",
  'src/common/database/sql.ts': "export const sql = 'SELECT 1';\n",
  'src/modules/links/index.ts': "export { LinksService } from './links.service';\n",
  'src/modules/links/links.service.ts':
    "import { one } from '../../common/errors/util';\nimport { sql } from '../../common/database/sql';\nexport class LinksService { n = one; q = sql; }\n",
  'src/modules/custom-link-jobs/index.ts': "export { CustomLinkJobsService } from './jobs.service';\n",
  'src/modules/custom-link-jobs/jobs.service.ts': 'export class CustomLinkJobsService {}\n',
  'src/modules/reports/reports.service.ts':
    "import { LinksService } from '../links';\nexport class ReportsService { links = new LinksService(); }\n",
  'src/database/migrations/1-first.ts': 'export class First1 {}\n',
  'src/database/migrations/index.ts': "import { First1 } from './1-first';\nexport const MIGRATIONS = [First1];\n",
  'src/database/data-source.ts': "import { MIGRATIONS } from './migrations';\nexport const options = { MIGRATIONS };\n",
  'src/app.module.ts': "import { options } from './database/data-source';\nexport const app = options;\n",
};

const VIOLATIONS: Record<string, string> = {
  'src/common/knows-links.ts': "import { LinksService } from '../modules/links';\nexport const s = LinksService;\n",
  'src/config/knows-links.ts':
    "import { LinksService } from '../modules/links/links.service';\nexport const s = LinksService;\n",
  'src/modules/reports/deep-import.ts':
    "import { LinksService } from '../links/links.service';\nexport const s = LinksService;\n",
  'src/modules/custom-link-jobs/knows-links.ts':
    "import { LinksService } from '../links';\nexport const s = LinksService;\n",
  'src/modules/custom-links/index.ts': 'export const x = 1;\n',
  'src/modules/custom-link-jobs/knows-job-type.ts': "import { x } from '../custom-links';\nexport const y = x;\n",
  'src/modules/reports/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'src/modules/reports/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
  'src/common/errors/uses-dev-tool.ts': "import { tool } from 'devtool';\nexport const t = tool;\n",
  'src/modules/reports/uses-test.ts':
    "import { helper } from '../../../test/support/helper';\nexport const h = helper;\n",
  'test/support/helper.ts': 'export const helper = 1;\n',
  'src/common/knows-data-source.ts': "import { options } from '../database/data-source';\nexport const o = options;\n",
  // One import up from each layer of src/common but the top one.
  'src/common/errors/knows-redis.ts': "import { two } from '../redis/client';\nexport const t = two;\n",
  'src/common/redis/knows-http.ts': "import { three } from '../http/headers';\nexport const t = three;\n",
  'src/common/http/knows-validation.ts': "import { four } from '../validation/check';\nexport const f = four;\n",
  'src/common/validation/knows-limits.ts': "import { five } from '../limits/limit';\nexport const f = five;\n",
  'src/common/limits/knows-pipeline.ts': "import { six } from '../pipeline/pipeline';\nexport const s = six;\n",
  'src/common/database/knows-errors.ts': "import { one } from '../errors/util';\nexport const o = one;\n",
  'src/common/unlayered/port.ts': 'export const port = 1;\n',
  'src/modules/links/uses-unlayered.ts':
    "import { port } from '../../common/unlayered/port';\nexport const p = port;\n",
  'src/modules/links/knows-data-source.ts':
    "import { options } from '../../database/data-source';\nexport const o = options;\n",
  'src/database/migrations/2-second.ts':
    "import { First1 } from './1-first';\nexport class Second2 extends First1 {}\n",
  'src/database/migrations/3-third.ts': "import { one } from '../../common/errors/util';\nexport const t = one;\n",
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

  it('catch each rule broken once: a cycle, the layers of common, module, database and migration boundaries, a devDependency at run time, test code in src', () => {
    expect(violatedRules({ ...CLEAN, ...VIOLATIONS })).toEqual([
      'common-folder-has-a-layer',
      'common-foundation-imports-no-higher-layer',
      'common-http-imports-no-higher-layer',
      'common-infrastructure-imports-no-higher-layer',
      'common-knows-no-module',
      'common-request-checks-imports-no-higher-layer',
      'common-request-services-imports-no-higher-layer',
      'custom-link-jobs-knows-no-job-type',
      'dev-dependencies-as-types-only',
      'migration-imports-no-migration',
      'migration-imports-only-typeorm',
      'module-public-api-only',
      'modules-import-no-data-source',
      'no-circular',
      'no-test-code-in-src',
      'sql-helpers-import-nothing-of-src',
    ]);
  });
});
