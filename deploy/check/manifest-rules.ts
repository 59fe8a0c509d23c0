import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { AppFacts, Role } from './app-facts.ts';
import {
  effectiveEnv,
  envNames,
  envSources,
  externallySetNames,
  find,
  nameOf,
  selects,
  valuesOf,
  workloads,
  type K8sObject,
  type Workload,
} from './k8s.ts';

/** Beyond the drain delay and the shutdown timeout, time for the process to exit before SIGKILL. */
export const SHUTDOWN_MARGIN_MS = 5000;

/** The kubectl label selectors of deploy/README.md's release steps: every object belongs to one. */
export const PHASE_LABEL = 'deploy-phase';
export const PHASES = ['prerequisites', 'migration', 'rollout'];

const PROBE_PATHS = { startupProbe: '/healthz', livenessProbe: '/healthz', readinessProbe: '/readyz' } as const;
const PINNED_IMAGE = /^[^@\s]+:([^@:/\s]+)@sha256:[0-9a-f]{64}$/;

/** Every container sets requests and limits of each (ephemeral storage: its logs on the node). */
const RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];
/** Every Deployment spreads its pods over zones and over nodes. */
const SPREAD_KEYS = ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'];

export interface CheckOptions {
  /**
   * A release overlay (production): it must be ready to apply, so no placeholder may remain
   * (CHANGE_ME, example hosts and addresses, all-zero digests). Other overlays are examples.
   */
  release?: boolean;
}

/** Every way a rendered overlay disagrees with the app or with the deployment rules; [] when none. */
export function manifestProblems(objects: K8sObject[], facts: AppFacts, options: CheckOptions = {}): string[] {
  const checks = [
    phaseProblems,
    referenceProblems,
    publicIngressProblems,
    scrapeProblems,
    webhookEgressProblems,
    ...(options.release ? [placeholderProblems] : []),
    ...workloads(objects).map((w) => (all: K8sObject[], f: AppFacts) => workloadProblems(w, all, f)),
  ];
  return checks.flatMap((check) => check(objects, facts));
}

/** deploy/base is applied by every overlay: it must not hold a Secret, which would overwrite the real one. */
export function baseProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'Secret')
    .map(
      (o) =>
        `${nameOf(o)}: no Secret in deploy/base (an overlay generates or references it), or every release would apply it over the real one`,
    );
}

function workloadProblems(workload: Workload, objects: K8sObject[], facts: AppFacts): string[] {
  const owner = nameOf(workload.object);
  const pod = workload.template.spec;
  const problems: string[] = [];
  if (pod?.securityContext?.runAsNonRoot !== true)
    problems.push(`${owner}: pod securityContext.runAsNonRoot must be true`);
  if (!(Number(pod?.securityContext?.runAsUser) > 0))
    problems.push(
      `${owner}: pod securityContext.runAsUser must be a non-zero uid (the image's user is a name, which runAsNonRoot cannot verify)`,
    );
  if (pod?.automountServiceAccountToken !== false)
    problems.push(`${owner}: automountServiceAccountToken must be false (the app never calls the Kubernetes API)`);
  if (workload.object.kind === 'Deployment') problems.push(...spreadProblems(workload).map((p) => `${owner}: ${p}`));
  for (const container of workload.containers) {
    const where = `${owner} container ${container.name}`;
    problems.push(
      ...containerHardening(container, pod?.securityContext?.seccompProfile?.type).map((p) => `${where}: ${p}`),
    );
    problems.push(...envProblems(container, objects, facts).map((p) => `${where}: ${p}`));
    // Values an ExternalSecret provides exist only in the cluster: the app's checks of those are skipped.
    const external = externallySetNames(container, objects);
    const startProblems = facts
      .configProblems(effectiveEnv(container, objects, facts.defaults))
      .filter((p) => !external.some((name) => p.includes(` ${name}`)));
    problems.push(...startProblems.map((p) => `${where}: the app would not start: ${p}`));
    if (workload.object.kind === 'Deployment')
      problems.push(...serverProblems(workload, container, objects, facts).map((p) => `${where}: ${p}`));
    else problems.push(...commandProblems(container, facts.commands.migrate).map((p) => `${where}: ${p}`));
  }
  return problems;
}

function containerHardening(container: IContainer, podSeccomp: string | undefined): string[] {
  const problems: string[] = [];
  const context = container.securityContext;
  const tag = PINNED_IMAGE.exec(container.image ?? '')?.[1];
  if (!tag || tag === 'latest')
    problems.push(`image ${JSON.stringify(container.image)} is not pinned: name:tag@sha256:<digest>, tag not latest`);
  if (context?.allowPrivilegeEscalation !== false)
    problems.push('securityContext.allowPrivilegeEscalation must be false');
  if (context?.readOnlyRootFilesystem !== true) problems.push('securityContext.readOnlyRootFilesystem must be true');
  if (context?.privileged === true) problems.push('must not be privileged');
  if (!context?.capabilities?.drop?.includes('ALL'))
    problems.push('securityContext.capabilities.drop must include ALL');
  if ((context?.seccompProfile?.type ?? podSeccomp) !== 'RuntimeDefault')
    problems.push('seccompProfile must be RuntimeDefault (pod or container)');
  for (const bound of ['requests', 'limits'] as const) {
    for (const resource of RESOURCES)
      if (container.resources?.[bound]?.[resource] === undefined)
        problems.push(`resources.${bound}.${resource} is not set`);
  }
  return problems;
}

function envProblems(container: IContainer, objects: K8sObject[], facts: AppFacts): string[] {
  const problems = envSources(container, objects).missing.map(
    (source) => `envFrom names ${source}, which the overlay does not render`,
  );
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
  if (http?.containerPort !== port)
    problems.push(`port "http" is ${http?.containerPort}, the app listens on PORT=${env.PORT}`);
  for (const [kind, expected] of Object.entries(PROBE_PATHS) as [keyof typeof PROBE_PATHS, string][]) {
    problems.push(...probeProblems(kind, container[kind], expected, served, port, container));
  }
  problems.push(...shutdownProblems(workload, container, env));
  return problems;
}

function probeProblems(
  kind: string,
  probe: IProbe | undefined,
  expected: string,
  served: string[],
  port: number,
  container: IContainer,
): string[] {
  const get = probe?.httpGet;
  if (!get) return [`${kind} must be an httpGet probe of ${expected}`];
  const problems: string[] = [];
  if (get.path !== expected) problems.push(`${kind} probes ${get.path}, expected ${expected}`);
  if (!served.includes(get.path ?? '')) problems.push(`${kind} path ${get.path} is not a GET route of this APP_ROLE`);
  const probed =
    typeof get.port === 'number' ? get.port : (container.ports ?? []).find((p) => p.name === get.port)?.containerPort;
  if (probed !== port) problems.push(`${kind} port ${JSON.stringify(get.port)} is not the app's PORT ${port}`);
  return problems;
}

function shutdownProblems(workload: Workload, container: IContainer, env: Record<string, string>): string[] {
  const grace = workload.template.spec?.terminationGracePeriodSeconds ?? 30;
  const drain = env.SHUTDOWN_DRAIN_DELAY_MS;
  const timeout = env.SHUTDOWN_TIMEOUT_MS;
  if (drain === undefined || timeout === undefined)
    return [
      'SHUTDOWN_DRAIN_DELAY_MS and SHUTDOWN_TIMEOUT_MS must be known (set them, or the app must declare a default)',
    ];
  const preStop = preStopSleepMs(container);
  const needed = preStop + Number(drain) + Number(timeout) + SHUTDOWN_MARGIN_MS;
  if (!(grace * 1000 >= needed)) {
    return [
      `terminationGracePeriodSeconds ${grace} is under preStop ${preStop} ms + SHUTDOWN_DRAIN_DELAY_MS ${drain} + SHUTDOWN_TIMEOUT_MS ${timeout} + ${SHUTDOWN_MARGIN_MS} ms margin = ${needed / 1000} s`,
    ];
  }
  return [];
}

/** A preStop sleep delays SIGTERM and counts against the grace period. */
function preStopSleepMs(container: IContainer): number {
  const preStop = container.lifecycle?.preStop as
    { sleep?: { seconds: number }; exec?: { command?: string[] } } | undefined;
  if (preStop?.sleep) return preStop.sleep.seconds * 1000;
  const command = preStop?.exec?.command ?? [];
  const seconds = command[0]?.endsWith('sleep') ? Number(command[1]) : 0;
  return (Number.isFinite(seconds) ? seconds : 0) * 1000;
}

/** `node [--flag ...] <what package.json's script runs>`: the manifests run what the project runs. */
function commandProblems(container: IContainer, expected: string[]): string[] {
  const [program, ...rest] = [...(container.command ?? []), ...(container.args ?? [])];
  const scriptArgs = rest.filter((arg) => !arg.startsWith('--'));
  if (program !== 'node' || scriptArgs.join(' ') !== expected.join(' '))
    return [`runs ${JSON.stringify([program, ...rest].join(' '))}, expected node ${expected.join(' ')} (package.json)`];
  return [];
}

/** The release applies by phase: config first, then the migration Job alone, then the rollout. */
function phaseProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const phase = object.metadata.labels?.[PHASE_LABEL];
    if (!phase || !PHASES.includes(phase))
      problems.push(`${nameOf(object)}: label ${PHASE_LABEL} must be one of ${PHASES.join(', ')}`);
    else if ((phase === 'migration') !== (object.kind === 'Job'))
      problems.push(`${nameOf(object)}: only the migration Job is in phase migration`);
  }
  for (const job of workloads(objects).filter((w) => w.object.kind === 'Job')) {
    const needed = [
      ...job.containers.flatMap((c) => envSources(c, objects).found),
      find(objects, 'ServiceAccount', job.template.spec?.serviceAccountName ?? ''),
    ];
    for (const object of needed) {
      if (object && object.metadata.labels?.[PHASE_LABEL] !== 'prerequisites')
        problems.push(`${nameOf(job.object)} needs ${nameOf(object)}, which must be in phase prerequisites`);
    }
  }
  return problems;
}

/** Services, Ingresses, HPAs, PDBs and NetworkPolicies point at something the overlay renders. */
function referenceProblems(objects: K8sObject[]): string[] {
  const pods = workloads(objects);
  const podsSelectedBy = (selector: Parameters<typeof selects>[0]) =>
    pods.filter((w) => selects(selector, w.template.metadata?.labels));
  const problems: string[] = [];
  for (const object of objects) {
    const spec = (object.spec ?? {}) as Record<string, never>;
    const name = nameOf(object);
    switch (object.kind) {
      case 'Service': {
        const selected = pods.filter(
          (w) =>
            w.object.kind === 'Deployment' &&
            Object.entries(spec.selector ?? {}).every(([k, v]) => w.template.metadata?.labels?.[k] === v),
        );
        if (selected.length === 0) problems.push(`${name}: selects no Deployment's pods`);
        for (const port of (spec.ports ?? []) as { name?: string; targetPort?: string | number }[]) {
          const known = selected.every((w) =>
            w.containers.some((c) =>
              (c.ports ?? []).some((p) => p.name === port.targetPort || p.containerPort === port.targetPort),
            ),
          );
          if (!known)
            problems.push(`${name}: targetPort ${JSON.stringify(port.targetPort)} is not a port of the selected pods`);
        }
        break;
      }
      case 'Ingress':
        for (const backend of ingressBackends(spec)) {
          const service = find(objects, 'Service', backend.name);
          const ports = ((service?.spec?.ports ?? []) as { name?: string; port?: number }[]).filter(
            (p) => p.name === backend.port.name || p.port === backend.port.number,
          );
          if (!service || ports.length === 0)
            problems.push(
              `${name}: backend ${backend.name}:${backend.port.name ?? backend.port.number} is not a rendered Service port`,
            );
        }
        break;
      case 'HorizontalPodAutoscaler':
      case 'ScaledObject': {
        const target = spec.scaleTargetRef as { kind?: string; name: string } | undefined;
        // A ScaledObject's target is a Deployment unless it says otherwise.
        const kind = target?.kind ?? 'Deployment';
        if (!target || !find(objects, kind, target.name))
          problems.push(`${name}: scaleTargetRef ${kind}/${target?.name} is not rendered`);
        // KEDA makes an HPA of its own for a ScaledObject: a second one would fight it.
        const scalers = objects.filter(
          (o) =>
            ['HorizontalPodAutoscaler', 'ScaledObject'].includes(o.kind) &&
            (o.spec?.scaleTargetRef as { name?: string } | undefined)?.name === target?.name,
        );
        if (scalers.length > 1 && object.kind === 'ScaledObject')
          problems.push(
            `${name}: ${scalers
              .filter((o) => o !== object)
              .map(nameOf)
              .join(', ')} also scales ${kind}/${target?.name}`,
          );
        if (
          object.kind === 'HorizontalPodAutoscaler' &&
          ((spec.metrics ?? []) as { type: string }[]).some((m) => m.type === 'External')
        ) {
          problems.push(
            `${name}: an External metric needs a metrics adapter that deploy/ does not provide; scale on it with a KEDA ScaledObject`,
          );
        }
        break;
      }
      case 'PodMonitor':
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
  const rules = (spec.rules ?? []) as {
    http?: { paths?: { backend?: { service?: { name: string; port: { name?: string; number?: number } } } }[] };
  }[];
  return rules.flatMap((rule) =>
    (rule.http?.paths ?? []).flatMap((path) => (path.backend?.service ? [path.backend.service] : [])),
  );
}

/** Zone spread first, then nodes: each key a constraint that selects the Deployment's own pods. */
function spreadProblems(workload: Workload): string[] {
  const constraints = workload.template.spec?.topologySpreadConstraints ?? [];
  return SPREAD_KEYS.filter(
    (key) =>
      !constraints.some((c) => c.topologyKey === key && selects(c.labelSelector, workload.template.metadata?.labels)),
  ).map((key) => `topologySpreadConstraints must spread its own pods by ${key}`);
}

/** The Deployments' server containers with what they see: a port name or number resolved against them. */
function servers(objects: K8sObject[], facts: AppFacts) {
  return workloads(objects)
    .filter((w) => w.object.kind === 'Deployment')
    .flatMap((w) =>
      w.containers.map((container) => ({
        workload: w,
        container,
        env: effectiveEnv(container, objects, facts.defaults),
      })),
    );
}

const portNumber = (container: IContainer, port: string | number | undefined) =>
  typeof port === 'number' ? port : (container.ports ?? []).find((p) => p.name === port)?.containerPort;

/** The port /metrics answers on in this environment, or undefined when METRICS_ENABLED=false. */
function metricsPortOf(env: Record<string, string>): number | undefined {
  if (['false', '0', 'no'].includes((env.METRICS_ENABLED ?? 'true').toLowerCase())) return undefined;
  return Number(env.METRICS_PORT || env.PORT);
}

/**
 * What an Ingress routes is public: never /metrics (METRICS_PORT keeps it off the routed port) nor
 * /docs and the OpenAPI JSON (DOCS_ENABLED=false), whatever the paths say.
 */
function publicIngressProblems(objects: K8sObject[], facts: AppFacts): string[] {
  const problems: string[] = [];
  for (const ingress of objects.filter((o) => o.kind === 'Ingress')) {
    for (const backend of ingressBackends((ingress.spec ?? {}) as Record<string, never>)) {
      const service = find(objects, 'Service', backend.name);
      const servicePort = (
        (service?.spec?.ports ?? []) as { name?: string; port?: number; targetPort?: string | number }[]
      ).find((p) => p.name === backend.port.name || p.port === backend.port.number);
      if (!service || !servicePort) continue;
      const selector = (service.spec?.selector ?? {}) as Record<string, string>;
      for (const { workload, container, env } of servers(objects, facts).filter((s) =>
        Object.entries(selector).every(([k, v]) => s.workload.template.metadata?.labels?.[k] === v),
      )) {
        const routed = portNumber(container, servicePort.targetPort ?? servicePort.port);
        const where = `${nameOf(ingress)} routes ${nameOf(workload.object)} port ${routed}`;
        if (routed !== undefined && routed === metricsPortOf(env))
          problems.push(`${where}, which serves /metrics to the public: set METRICS_PORT to a port of its own`);
        if (routed === Number(env.PORT) && !['false', '0', 'no'].includes((env.DOCS_ENABLED ?? 'true').toLowerCase()))
          problems.push(`${where}, which serves /docs and the OpenAPI JSON to the public: set DOCS_ENABLED=false`);
      }
    }
  }
  return problems;
}

/** API and worker pods are scraped: a PodMonitor selects each one on the port /metrics answers on, named in the container. */
function scrapeProblems(objects: K8sObject[], facts: AppFacts): string[] {
  const monitors = objects.filter((o) => o.kind === 'PodMonitor');
  const problems: string[] = [];
  for (const { workload, container, env } of servers(objects, facts)) {
    const port = metricsPortOf(env);
    if (port === undefined) continue;
    const where = `${nameOf(workload.object)} container ${container.name}`;
    if (env.METRICS_PORT && portNumber(container, 'metrics') !== port)
      problems.push(
        `${where}: port "metrics" is ${portNumber(container, 'metrics')}, the app serves /metrics on METRICS_PORT=${env.METRICS_PORT}`,
      );
    const scraping = monitors.filter((m) =>
      selects(m.spec?.selector as Parameters<typeof selects>[0], workload.template.metadata?.labels),
    );
    const endpoints = scraping.flatMap(
      (m) => (m.spec?.podMetricsEndpoints ?? []) as { port?: string; path?: string }[],
    );
    if (!endpoints.some((e) => portNumber(container, e.port) === port && (e.path ?? '/metrics') === '/metrics'))
      problems.push(`${where}: no PodMonitor scrapes /metrics on port ${port}`);
  }
  return problems;
}

/** WEBHOOK_ALLOWED_PORTS and the ports the workers' egress opens to public addresses are the same set. */
function webhookEgressProblems(objects: K8sObject[], facts: AppFacts): string[] {
  const problems: string[] = [];
  for (const { workload, container, env } of servers(objects, facts).filter((s) =>
    ['worker', 'all'].includes(s.env.APP_ROLE),
  )) {
    const policies = objects.filter(
      (o) =>
        o.kind === 'NetworkPolicy' &&
        ((o.spec?.policyTypes ?? []) as string[]).includes('Egress') &&
        selects(o.spec?.podSelector as Parameters<typeof selects>[0], workload.template.metadata?.labels),
    );
    if (policies.length === 0) continue;
    const rules = policies.flatMap(
      (p) =>
        (p.spec?.egress ?? []) as { to?: { ipBlock?: { cidr: string } }[]; ports?: { port?: number | string }[] }[],
    );
    const open = new Set(
      rules
        .filter((r) => (r.to ?? []).some((t) => t.ipBlock?.cidr === '0.0.0.0/0'))
        .flatMap((r) => (r.ports ?? []).map((p) => Number(p.port))),
    );
    const allowed = new Set((env.WEBHOOK_ALLOWED_PORTS ?? '').split(',').map((p) => Number(p.trim())));
    const same = open.size === allowed.size && [...open].every((p) => allowed.has(p));
    if (!same) {
      problems.push(
        `${nameOf(workload.object)} container ${container.name}: WEBHOOK_ALLOWED_PORTS=${env.WEBHOOK_ALLOWED_PORTS} but the egress to public addresses opens ${[...open].join(',') || 'no port'}: webhook URLs the API accepts must be reachable`,
      );
    }
  }
  return problems;
}

const ZERO_DIGEST = /@sha256:0{64}$/;
/** A host of RFC 2606 style: a label `example` (links.example.com, postgres.example.internal) or `.invalid`. */
const EXAMPLE_HOST = /(^|\.)(example(\.|$)|invalid$)/i;
/** RFC 5737 / RFC 3849 documentation ranges: placeholders for real addresses. */
const DOCUMENTATION_RANGE = /^(192\.0\.2\.|198\.51\.100\.|203\.0\.113\.|2001:db8:)/i;

function exampleHostIn(value: string): string | undefined {
  for (const [candidate] of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"']+/gi)) {
    try {
      const { hostname } = new URL(candidate);
      if (EXAMPLE_HOST.test(hostname)) return hostname;
    } catch {
      // not a URL after all
    }
  }
  return undefined;
}

/** A release overlay applies what it says: no CHANGE_ME, example host, documentation address or all-zero digest. */
function placeholderProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const name = nameOf(object);
    if (object.kind === 'Secret' || object.kind === 'ConfigMap') {
      for (const [key, value] of Object.entries(valuesOf(object))) {
        const host = exampleHostIn(value);
        if (/CHANGE_ME/i.test(value))
          problems.push(
            `${name}: ${key} is a placeholder (CHANGE_ME)${object.kind === 'Secret' ? ': fill in secrets.env' : ''}`,
          );
        else if (host) problems.push(`${name}: ${key} names the example host ${host}`);
      }
    }
    if (object.kind === 'Ingress') {
      const spec = (object.spec ?? {}) as { rules?: { host?: string }[]; tls?: { hosts?: string[] }[] };
      for (const host of new Set([
        ...(spec.rules ?? []).map((r) => r.host ?? ''),
        ...(spec.tls ?? []).flatMap((t) => t.hosts ?? []),
      ]))
        if (EXAMPLE_HOST.test(host)) problems.push(`${name}: host ${host} is an example`);
    }
    if (object.kind === 'NetworkPolicy') {
      const rules = [
        ...((object.spec?.egress ?? []) as { to?: unknown[] }[]).flatMap((r) => r.to ?? []),
        ...((object.spec?.ingress ?? []) as { from?: unknown[] }[]).flatMap((r) => r.from ?? []),
      ] as { ipBlock?: { cidr: string } }[];
      for (const cidr of rules.flatMap((peer) => (peer.ipBlock ? [peer.ipBlock.cidr] : [])))
        if (DOCUMENTATION_RANGE.test(cidr))
          problems.push(`${name}: ${cidr} is a documentation address (a placeholder)`);
    }
  }
  for (const { object, containers } of workloads(objects)) {
    for (const container of containers) {
      const image = container.image ?? '';
      if (ZERO_DIGEST.test(image))
        problems.push(
          `${nameOf(object)} container ${container.name}: image ${image} has the all-zero placeholder digest: set the pushed image's (kustomize edit set image)`,
        );
      const registry = image.split('/')[0];
      if (image.includes('/') && EXAMPLE_HOST.test(registry.split(':')[0]))
        problems.push(`${nameOf(object)} container ${container.name}: image registry ${registry} is an example`);
    }
  }
  return problems;
}
