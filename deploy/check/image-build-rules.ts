import { parse } from 'yaml';
import { SHUTDOWN_MARGIN_MS } from './manifest-rules.ts';

const PINNED_BASE = (nodeVersion: string) =>
  new RegExp(`^node:${nodeVersion.replace(/\./g, '\\.')}-[a-z0-9-]+@sha256:[0-9a-f]{64}$`);
/** The image build fetches nothing but the locked install from the registry. */
const FETCHING_RUN = /\b(npx|curl|wget|git\s+clone)\b/;

/** docker/Dockerfile: one base, the Node of .nvmrc pinned by digest, and no download but the install. */
export function dockerfileProblems(dockerfile: string, nodeVersion: string): string[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim());
  const problems: string[] = [];
  const base = lines.map((line) => /^ARG\s+NODE_IMAGE=(\S+)$/.exec(line)?.[1]).find(Boolean);
  if (!base || !PINNED_BASE(nodeVersion).test(base))
    problems.push(
      `docker/Dockerfile: ARG NODE_IMAGE must be node:${nodeVersion}-<variant>@sha256:<digest> (.nvmrc), not ${JSON.stringify(base)}`,
    );
  const stages: string[] = [];
  for (const line of lines.filter((l) => /^FROM\s/i.test(l))) {
    const [, from, stage] = /^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(line) ?? [];
    if (from !== '${NODE_IMAGE}' && !stages.includes(from))
      problems.push(`docker/Dockerfile: "${line}" must start from \${NODE_IMAGE} or an earlier stage`);
    if (stage) stages.push(stage);
  }
  for (const line of lines.filter((l) => /^RUN\s/i.test(l) && FETCHING_RUN.test(l)))
    problems.push(`docker/Dockerfile: "${line}" downloads during the build`);
  return problems;
}

/** docker/compose.yaml: every server service (APP_ROLE set) gets the shutdown the app needs before SIGKILL. */
export function composeProblems(compose: string, defaults: Record<string, string>): string[] {
  const services =
    (
      parse(compose, { merge: true }) as {
        services?: Record<string, { environment?: Record<string, string>; stop_grace_period?: string }>;
      }
    ).services ?? {};
  return Object.entries(services)
    .filter(([, service]) => service.environment?.APP_ROLE !== undefined)
    .flatMap(([name, service]) => {
      const env = { ...defaults, ...service.environment };
      const needed = Number(env.SHUTDOWN_DRAIN_DELAY_MS) + Number(env.SHUTDOWN_TIMEOUT_MS) + SHUTDOWN_MARGIN_MS;
      const grace = durationMs(service.stop_grace_period ?? '10s');
      if (Number.isNaN(needed))
        return [
          `docker/compose.yaml: service ${name} must set SHUTDOWN_DRAIN_DELAY_MS and SHUTDOWN_TIMEOUT_MS (or the app declare defaults)`,
        ];
      return grace >= needed
        ? []
        : [
            `docker/compose.yaml: service ${name} stop_grace_period ${service.stop_grace_period ?? '(10s default)'} is under SHUTDOWN_DRAIN_DELAY_MS + SHUTDOWN_TIMEOUT_MS + ${SHUTDOWN_MARGIN_MS} ms = ${needed / 1000} s`,
          ];
    });
}

/** A compose duration ("35s", "1m30s", "500ms") in milliseconds; NaN when it is not one. */
function durationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };
  const parts = [...String(text).matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)/g)];
  if (parts.map((p) => p[0]).join('') !== String(text)) return Number.NaN;
  return parts.reduce((total, [, value, unit]) => total + Number(value) * units[unit], 0);
}
