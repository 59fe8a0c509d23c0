import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { AppFacts, Role } from './app-facts.ts';
import { effectiveEnv, envNames, envSources, find, nameOf, selects, valuesOf, workloads, type K8sObject, type Workload } from './k8s.ts';

/** Beyond the drain delay and the shutdown timeout, time for the process to exit before SIGKILL. */
export const SHUTDOWN_MARGIN_MS = 5000;

/** The kubectl label selectors of deploy/README.md's release steps: every object belongs to one. */
export const PHASE_LABEL = 'deploy-phase';
export const PHASES = ['prerequisites', 'migration', 'rollout'];

const PROBE_PATHS = { startupProbe: '/healthz', livenessProbe: '/healthz', readinessProbe: '/readyz' } as const;
const PINNED_IMAGE = /^[^@\s]+:([^@:/\s]+)@sha256:[0-9a-f]{64}$/;

/** Every way a rendered overlay disagrees with the app or with the deployment rules; [] when none. */
export function manifestProblems(objects: K8sObject[], facts: AppFacts): string[] {
  const checks = [phaseProblems, secretProblems, referenceProblems, ...workloads(objects).map((w) => (all: K8sObject[], f: AppFacts) => workloadProblems(w, all, f))];
  return checks.flatMap((check) => check(objects, facts));
}

function workloadProblems(workload: Workload, objects: K8sObject[], facts: AppFacts): string[] {
  const owner = nameOf(workload.object);
  const pod = workload.template.spec;
  const problems: string[] = [];
  if (pod?.securityContext?.runAsNonRoot !== true) problems.push(`${owner}: pod securityContext.runAsNonRoot must be true`);
  if (!(Number(pod?.securityContext?.runAsUser) > 0)) problems.push(`${owner}: pod securityContext.runAsUser must be a non-zero uid (the image's user is a name, which runAsNonRoot cannot verify)`);
  if (pod?.automountServiceAccountToken !== false) problems.push(`${owner}: automountServiceAccountToken must be false (the app never calls the Kubernetes API)`);
  for (const container of workload.containers) {
    const where = `${owner} container ${container.name}`;
    problems.push(...containerHardening(container, pod?.securityContext?.seccompProfile?.type).map((p) => `${where}: ${p}`));
    problems.push(...envProblems(container, objects, facts).map((p) => `${where}: ${p}`));
    problems.push(...facts.configProblems(effectiveEnv(container, objects, facts.defaults)).map((p) => `${where}: the app would not start: ${p}`));
    if (workload.object.kind === 'Deployment') problems.push(...serverProblems(workload, container, objects, facts).map((p) => `${where}: ${p}`));
    else problems.push(...commandProblems(container, facts.commands.migrate).map((p) => `${where}: ${p}`));
  }
  return problems;
}

function containerHardening(container: IContainer, podSeccomp: string | undefined): string[] {
  const problems: string[] = [];
  const context = container.securityContext;
  const tag = PINNED_IMAGE.exec(container.image ?? '')?.[1];
  if (!tag || tag === 'latest') problems.push(`image ${JSON.stringify(container.image)} is not pinned: name:tag@sha256:<digest>, tag not latest`);
  if (context?.allowPrivilegeEscalation !== false) problems.push('securityContext.allowPrivilegeEscalation must be false');
  if (context?.readOnlyRootFilesystem !== true) problems.push('securityContext.readOnlyRootFilesystem must be true');
  if (context?.privileged === true) problems.push('must not be privileged');
  if (!context?.capabilities?.drop?.includes('ALL')) problems.push('securityContext.capabilities.drop must include ALL');
  if ((context?.seccompProfile?.type ?? podSeccomp) !== 'RuntimeDefault') problems.push('seccompProfile must be RuntimeDefault (pod or container)');
  for (const bound of ['requests', 'limits'] as const) {
    for (const resource of ['cpu', 'memory']) if (container.resources?.[bound]?.[resource] === undefined) problems.push(`resources.${bound}.${resource} is not set`);
  }
  return problems;
}

function envProblems(container: IContainer, objects: K8sObject[], facts: AppFacts): string[] {
  const problems = envSources(container, objects).missing.map((source) => `envFrom names ${source}, which the overlay does not render`);
  for (const name of envNames(container, objects)) {
    if (!(name in facts.defaults)) problems.push(`sets ${name}, which src/config/environment.ts does not declare`);
  }
  return problems;
}

/** A Deployment's container runs the server: role, command, port, probes and shutdown time must fit the app. */
function serverProblems(workload: Workload, container: IContainer, objects: K8sObject[], facts: AppFacts): string[] {
  const env = effectiveEnv(container, objects, facts.defaults);
  const role = env.APP_ROLE as Role;
  const served = facts.getPaths[role];
  if (!served) return [`APP_ROLE ${JSON.stringify(env.APP_ROLE)} is not a role of the app`];
  const problems = commandProblems(container, facts.commands.server);
  const port = Number(env.PORT);
  const http = (container.ports ?? []).find((p) => p.name === 'http');
  if (http?.containerPort !== port) problems.push(`port "http" is ${http?.containerPort}, the app listens on PORT=${env.PORT}`);
  for (const [kind, expected] of Object.entries(PROBE_PATHS) as [keyof typeof PROBE_PATHS, string][]) {
    problems.push(...probeProblems(kind, container[kind], expected, served, port, container));
  }
  problems.push(...shutdownProblems(workload, container, env));
  return problems;
}

function probeProblems(kind: string, probe: IProbe | undefined, expected: string, served: string[], port: number, container: IContainer): string[] {
  const get = probe?.httpGet;
  if (!get) return [`${kind} must be an httpGet probe of ${expected}`];
  const problems: string[] = [];
  if (get.path !== expected) problems.push(`${kind} probes ${get.path}, expected ${expected}`);
  if (!served.includes(get.path ?? '')) problems.push(`${kind} path ${get.path} is not a GET route of this APP_ROLE`);
  const probed = typeof get.port === 'number' ? get.port : (container.ports ?? []).find((p) => p.name === get.port)?.containerPort;
  if (probed !== port) problems.push(`${kind} port ${JSON.stringify(get.port)} is not the app's PORT ${port}`);
  return problems;
}

function shutdownProblems(workload: Workload, container: IContainer, env: Record<string, string>): string[] {
  const grace = workload.template.spec?.terminationGracePeriodSeconds ?? 30;
  const drain = env.SHUTDOWN_DRAIN_DELAY_MS;
  const timeout = env.SHUTDOWN_TIMEOUT_MS;
  if (drain === undefined || timeout === undefined) return ['SHUTDOWN_DRAIN_DELAY_MS and SHUTDOWN_TIMEOUT_MS must be known (set them, or the app must declare a default)'];
  const preStop = preStopSleepMs(container);
  const needed = preStop + Number(drain) + Number(timeout) + SHUTDOWN_MARGIN_MS;
  if (!(grace * 1000 >= needed)) {
    return [`terminationGracePeriodSeconds ${grace} is under preStop ${preStop} ms + SHUTDOWN_DRAIN_DELAY_MS ${drain} + SHUTDOWN_TIMEOUT_MS ${timeout} + ${SHUTDOWN_MARGIN_MS} ms margin = ${needed / 1000} s`];
  }
  return [];
}

/** A preStop sleep delays SIGTERM and counts against the grace period. */
function preStopSleepMs(container: IContainer): number {
  const preStop = container.lifecycle?.preStop as { sleep?: { seconds: number }; exec?: { command?: string[] } } | undefined;
  if (preStop?.sleep) return preStop.sleep.seconds * 1000;
  const command = preStop?.exec?.command ?? [];
  const seconds = command[0]?.endsWith('sleep') ? Number(command[1]) : 0;
  return (Number.isFinite(seconds) ? seconds : 0) * 1000;
}

/** `node [--flag ...] <what package.json's script runs>`: the manifests run what the project runs. */
function commandProblems(container: IContainer, expected: string[]): string[] {
  const [program, ...rest] = [...(container.command ?? []), ...(container.args ?? [])];
  const scriptArgs = rest.filter((arg) => !arg.startsWith('--'));
  if (program !== 'node' || scriptArgs.join(' ') !== expected.join(' ')) return [`runs ${JSON.stringify([program, ...rest].join(' '))}, expected node ${expected.join(' ')} (package.json)`];
  return [];
}

/** The release applies by phase: config first, then the migration Job alone, then the rollout. */
function phaseProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const phase = object.metadata.labels?.[PHASE_LABEL];
    if (!phase || !PHASES.includes(phase)) problems.push(`${nameOf(object)}: label ${PHASE_LABEL} must be one of ${PHASES.join(', ')}`);
    else if ((phase === 'migration') !== (object.kind === 'Job')) problems.push(`${nameOf(object)}: only the migration Job is in phase migration`);
  }
  for (const job of workloads(objects).filter((w) => w.object.kind === 'Job')) {
    const needed = [...job.containers.flatMap((c) => envSources(c, objects).found), find(objects, 'ServiceAccount', job.template.spec?.serviceAccountName ?? '')];
    for (const object of needed) {
      if (object && object.metadata.labels?.[PHASE_LABEL] !== 'prerequisites') problems.push(`${nameOf(job.object)} needs ${nameOf(object)}, which must be in phase prerequisites`);
    }
  }
  return problems;
}

/** Secrets in the repository are examples: every value must hold CHANGE_ME. */
function secretProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'Secret')
    .flatMap((secret) => Object.entries(valuesOf(secret)).filter(([, value]) => !value.includes('CHANGE_ME')).map(([key]) => `${nameOf(secret)}: ${key} is not a placeholder (CHANGE_ME); real secrets are never committed`));
}

/** Services, Ingresses, HPAs, PDBs and NetworkPolicies point at something the overlay renders. */
function referenceProblems(objects: K8sObject[]): string[] {
  const pods = workloads(objects);
  const podsSelectedBy = (selector: Parameters<typeof selects>[0]) => pods.filter((w) => selects(selector, w.template.metadata?.labels));
  const problems: string[] = [];
  for (const object of objects) {
    const spec = (object.spec ?? {}) as Record<string, never>;
    const name = nameOf(object);
    switch (object.kind) {
      case 'Service': {
        const selected = pods.filter((w) => w.object.kind === 'Deployment' && Object.entries(spec.selector ?? {}).every(([k, v]) => w.template.metadata?.labels?.[k] === v));
        if (selected.length === 0) problems.push(`${name}: selects no Deployment's pods`);
        for (const port of (spec.ports ?? []) as { name?: string; targetPort?: string | number }[]) {
          const known = selected.every((w) => w.containers.some((c) => (c.ports ?? []).some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)));
          if (!known) problems.push(`${name}: targetPort ${JSON.stringify(port.targetPort)} is not a port of the selected pods`);
        }
        break;
      }
      case 'Ingress':
        for (const backend of ingressBackends(spec)) {
          const service = find(objects, 'Service', backend.name);
          const ports = ((service?.spec?.ports ?? []) as { name?: string; port?: number }[]).filter((p) => p.name === backend.port.name || p.port === backend.port.number);
          if (!service || ports.length === 0) problems.push(`${name}: backend ${backend.name}:${backend.port.name ?? backend.port.number} is not a rendered Service port`);
        }
        break;
      case 'HorizontalPodAutoscaler': {
        const target = spec.scaleTargetRef as { kind: string; name: string } | undefined;
        if (!target || !find(objects, target.kind, target.name)) problems.push(`${name}: scaleTargetRef ${target?.kind}/${target?.name} is not rendered`);
        break;
      }
      case 'PodDisruptionBudget':
      case 'NetworkPolicy': {
        const selector = object.kind === 'NetworkPolicy' ? spec.podSelector : spec.selector;
        if (podsSelectedBy(selector).length === 0) problems.push(`${name}: selects no pods of the overlay`);
        break;
      }
    }
  }
  return problems;
}

function ingressBackends(spec: Record<string, never>): { name: string; port: { name?: string; number?: number } }[] {
  const rules = (spec.rules ?? []) as { http?: { paths?: { backend?: { service?: { name: string; port: { name?: string; number?: number } } } }[] } }[];
  return rules.flatMap((rule) => (rule.http?.paths ?? []).flatMap((path) => (path.backend?.service ? [path.backend.service] : [])));
}
