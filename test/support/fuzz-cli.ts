/**
 * `npm run fuzz -- --runs 100000 [--seed 7]`: the fuzz suite (test/fuzz.e2e-spec.ts) for a long run.
 * The flags become FUZZ_RUNS and FUZZ_SEED (set directly, those work too); jest runs that one spec
 * on a fresh database, as CI does. Add `--log-level error` to see the cause of a 5xx it finds.
 */
import { spawnSync } from 'node:child_process';

const FLAGS: Record<string, string> = { '--runs': 'FUZZ_RUNS', '--seed': 'FUZZ_SEED', '--log-level': 'FUZZ_LOG_LEVEL' };

const env = { ...process.env };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].split('=', 2);
  const variable = FLAGS[flag];
  const value = inline ?? args[++i];
  if (!variable || value === undefined) {
    process.stderr.write(`usage: npm run fuzz -- [--runs N] [--seed N] [--log-level error]\n`);
    process.exit(2);
  }
  if (variable !== 'FUZZ_LOG_LEVEL' && !/^\d+$/.test(value)) {
    process.stderr.write(`${flag} takes a whole number, not ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  env[variable] = value;
}

const jest = spawnSync('npx', ['jest', '--selectProjects', 'e2e', '--runTestsByPath', 'test/fuzz.e2e-spec.ts'], {
  stdio: 'inherit',
  env,
});
process.exit(jest.status ?? 1);
