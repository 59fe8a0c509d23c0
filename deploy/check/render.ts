import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { K8sObject } from './k8s.ts';

/**
 * `kubectl kustomize <dir>` parsed into objects. A missing kubectl is an error, never a skip: CI
 * machines have it (client 1.32, kustomize 5.5), and a check that skips proves nothing.
 */
export function renderOverlay(directory: string): K8sObject[] {
  const run = spawnSync('kubectl', ['kustomize', directory], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.error)
    throw new Error(
      `kubectl kustomize ${directory} could not run (${run.error.message}): deploy:check needs kubectl on the PATH`,
    );
  if (run.status !== 0) throw new Error(`kubectl kustomize ${directory} failed:\n${run.stderr.trim()}`);
  return parseObjects(run.stdout, directory);
}

export function parseObjects(text: string, source: string): K8sObject[] {
  return parseAllDocuments(text).flatMap((document) => {
    const problems = [...document.errors, ...document.warnings];
    if (problems.length > 0) throw new Error(`${source}: YAML: ${problems.map((p) => p.message).join('; ')}`);
    const object = document.toJS() as K8sObject | null;
    if (object === null) return [];
    if (
      typeof object?.apiVersion !== 'string' ||
      typeof object?.kind !== 'string' ||
      typeof object?.metadata?.name !== 'string'
    ) {
      throw new Error(`${source}: a document is not a Kubernetes object (apiVersion, kind, metadata.name)`);
    }
    return [object];
  });
}

/**
 * The files an overlay's own secretGenerator reads that do not exist (secrets.env is git-ignored):
 * kustomize would fail on them with a path error, the check names the file to make instead.
 */
export function missingGeneratorFiles(directory: string): string[] {
  const path = join(directory, 'kustomization.yaml');
  if (!existsSync(path)) return [];
  const kustomization = parse(readFileSync(path, 'utf8')) as {
    secretGenerator?: { envs?: string[]; files?: string[] }[];
  } | null;
  const files = (kustomization?.secretGenerator ?? []).flatMap((g) => [
    ...(g.envs ?? []),
    ...(g.files ?? []).map((f) => f.split('=').pop() as string),
  ]);
  return files.filter((file) => !existsSync(join(directory, file)));
}
