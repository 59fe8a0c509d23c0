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

/** The official Citus image of the PostgreSQL major version the project runs on (docs/scaling.md "Citus with Docker"). */
const CITUS_IMAGE = /^citusdata\/citus:13\.\d+\.\d+-pg15$/;

interface ComposeService {
  profiles?: string[];
  image?: string;
  command?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition?: string }> | string[];
}

const commandText = (service: ComposeService) =>
  Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
const dependsOn = (service: ComposeService, name: string, condition: string) =>
  !Array.isArray(service.depends_on) && service.depends_on?.[name]?.condition === condition;
const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
};

/**
 * docker/compose.yaml's `citus` profile: a coordinator and two workers of the official image, a
 * one-shot setup that registers the coordinator and both workers, a one-shot migration that runs the
 * distribution step after the migrations, and the API and worker on the coordinator, after it, on a
 * Redis database of their own; citus.enable_unsafe_triggers only where tables are distributed.
 */
export function citusProfileProblems(compose: string): string[] {
  const all = (parse(compose, { merge: true }) as { services?: Record<string, ComposeService> }).services ?? {};
  const services = Object.entries(all).filter(([, service]) => service.profiles?.includes('citus'));
  const problems: string[] = [];
  const problem = (text: string) => problems.push(`docker/compose.yaml: profile citus: ${text}`);
  const nodes = services.filter(([, service]) => CITUS_IMAGE.test(service.image ?? '') && !service.command);
  const coordinator = nodes.find(([name]) => name.includes('coordinator'))?.[0];
  const workers = nodes.filter(([name]) => name !== coordinator).map(([name]) => name);
  if (!coordinator || workers.length !== 2)
    problem(
      `needs a coordinator and two workers of ${CITUS_IMAGE.source} (found ${nodes.map(([n]) => n).join(', ') || 'none'})`,
    );
  const setup = services.find(([, service]) => commandText(service).includes('citus_add_node'));
  if (!setup) problem('needs a one-shot service that registers the workers (citus_add_node)');
  else {
    const text = commandText(setup[1]);
    if (coordinator && !text.includes(`citus_set_coordinator_host('${coordinator}'`))
      problem(`${setup[0]} must register the coordinator (citus_set_coordinator_host('${coordinator}', …))`);
    for (const worker of workers)
      if (!text.includes(`citus_add_node('${worker}'`)) problem(`${setup[0]} must add ${worker} (citus_add_node)`);
  }
  const migrate = services.find(([, service]) => /migration:run\b.*db:distribute\b/.test(commandText(service)));
  if (!migrate) problem('needs a one-shot service that runs migration:run, then db:distribute');
  else if (setup && !dependsOn(migrate[1], setup[0], 'service_completed_successfully'))
    problem(`${migrate[0]} must wait for ${setup[0]} to complete`);
  const apps = services.filter(([, service]) => service.environment?.APP_ROLE !== undefined);
  for (const role of ['api', 'worker'])
    if (!apps.some(([, service]) => service.environment?.APP_ROLE === role))
      problem(`needs an ${role} (APP_ROLE=${role})`);
  const plainRedis = Object.entries(all).find(
    ([, service]) => !service.profiles && service.environment?.APP_ROLE !== undefined,
  )?.[1].environment?.REDIS_URL;
  for (const [name, service] of [...apps, ...(migrate ? [migrate] : [])]) {
    const env = service.environment ?? {};
    if (coordinator && hostOf(env.DATABASE_URL) !== coordinator)
      problem(`${name}: DATABASE_URL must point at ${coordinator}`);
    if (plainRedis !== undefined && env.REDIS_URL === plainRedis)
      problem(`${name}: REDIS_URL must differ from the plain stack's (${plainRedis}): the queues would mix`);
  }
  for (const [name, service] of apps) {
    if (migrate && !dependsOn(service, migrate[0], 'service_completed_successfully'))
      problem(`${name} must wait for ${migrate[0]} to complete`);
    if ((service.environment?.PGOPTIONS ?? '').includes('enable_unsafe_triggers'))
      problem(`${name}: citus.enable_unsafe_triggers is for the distribution step only`);
  }
  return problems;
}
