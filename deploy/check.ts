/**
 * `npm run deploy:check`: renders every overlay of deploy/ with `kubectl kustomize`, validates each
 * object against the Kubernetes schemas (kubernetes-models, offline) and checks the manifests
 * against the built app (probe paths and ports, env names, shutdown time, commands), plus the image
 * build (docker/). The production overlay must also be ready to apply: its git-ignored secrets.env
 * present, no placeholder left (CHANGE_ME, example hosts and addresses, all-zero digests). deploy/base
 * must hold no Secret. Run by Node itself (type stripping); reads the app from dist/ (the npm script
 * builds first). Arguments: overlay directories (default: all of deploy/overlays).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative, resolve } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { appFacts, type AppFacts, type Role } from './check/app-facts.ts';
import { citusProfileProblems, composeProblems, dockerfileProblems } from './check/image-build-rules.ts';
import { baseProblems, manifestProblems } from './check/manifest-rules.ts';
import { missingGeneratorFiles, renderOverlay } from './check/render.ts';
import { schemaProblems } from './check/schemas.ts';

const root = process.cwd();
const overlaysDir = join(root, 'deploy', 'overlays');

/** The facts of the app as built: what the image runs. */
function builtAppFacts(): AppFacts {
  const built = (path: string) => join(root, 'dist', 'src', path);
  if (!existsSync(built('app.module.js')))
    throw new Error('dist/ is missing: run `npm run build` first (npm run deploy:check does)');
  const load = createRequire(join(root, 'package.json'));
  load('reflect-metadata');
  const { VARIABLES, loadConfig } = load(built('config/environment.js'));
  const { AppModule } = load(built('app.module.js'));
  return appFacts({
    variables: VARIABLES,
    loadConfig,
    moduleForRole: (role: Role) => AppModule.forRole(loadConfig({ NODE_ENV: 'test', APP_ROLE: role })) as DynamicModule,
    scripts: (load('./package.json') as { scripts: Record<string, string> }).scripts,
  });
}

async function main(): Promise<number> {
  const facts = builtAppFacts();
  const overlays =
    process.argv.length > 2
      ? process.argv.slice(2).map((dir) => resolve(dir))
      : readdirSync(overlaysDir).map((name) => join(overlaysDir, name));
  const problems: string[] = baseProblems(renderOverlay(join(root, 'deploy', 'base'))).map(
    (problem) => `deploy/base: ${problem}`,
  );
  for (const overlay of overlays) {
    const missing = missingGeneratorFiles(overlay);
    if (missing.length > 0) {
      problems.push(
        ...missing.map(
          (file) =>
            `${relative(root, overlay)}: ${file} is missing (git-ignored: copy ${file}.example and fill it in, or use deploy/components/external-secret)`,
        ),
      );
      process.stdout.write(`${relative(root, overlay)}: not rendered, ${missing.length} problems\n`);
      continue;
    }
    const objects = renderOverlay(overlay);
    // The production overlay is what a release applies: no placeholder may remain in it.
    const found = [
      ...(await schemaProblems(objects)),
      ...manifestProblems(objects, facts, { release: basename(overlay) === 'production' }),
    ];
    problems.push(...found.map((problem) => `${relative(root, overlay)}: ${problem}`));
    process.stdout.write(`${relative(root, overlay)}: ${objects.length} objects, ${found.length} problems\n`);
  }
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  problems.push(
    ...dockerfileProblems(read('docker/Dockerfile'), read('.nvmrc').trim()),
    ...composeProblems(read('docker/compose.yaml'), facts.defaults),
    ...citusProfileProblems(read('docker/compose.yaml')),
  );
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  process.stdout.write(
    problems.length === 0 ? 'deploy:check passed\n' : `deploy:check failed: ${problems.length} problems\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`deploy:check could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
