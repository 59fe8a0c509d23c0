import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { appFacts } from '../deploy/check/app-facts';
import { citusProfileProblems, composeProblems, dockerfileProblems } from '../deploy/check/image-build-rules';
import type { K8sObject } from '../deploy/check/k8s';
import { baseProblems, manifestProblems } from '../deploy/check/manifest-rules';
import { renderOverlay } from '../deploy/check/render';
import { AppModule } from './app.module';
import { loadConfig, VARIABLES } from './config/environment';

/**
 * deploy/ (issues 19 and 30): every overlay renders with kubectl kustomize and agrees with the app
 * read from its sources; each rule of deploy/check is shown to fail on a manifest that breaks it; and
 * `npm run deploy:check` itself (schemas by kubernetes-models, the built app) passes on a production
 * overlay filled in for a release, and fails loudly on one that would apply placeholders, on a broken
 * overlay, or without kubectl.
 *
 * The production overlay reads a git-ignored secrets.env: it is rendered from temporary copies of
 * deploy/, filled in as a release would be (releaseCopy), never from the checkout.
 */
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const OVERLAYS = ['development', 'production'];

const GOOD_SECRETS =
  'DATABASE_URL=postgres://engagement:Zx81-long-password@10.20.0.10:5432/engagement?sslmode=require\nREDIS_URL=rediss://:Zx81-redis-password@10.20.0.20:6380/0\nCURSOR_SECRET=7f3a9c1e5b2d4f6a8c0e2b4d6f8a0c2e\n';
const GOOD_DIGEST = `sha256:${'ab12'.repeat(16)}`;
const copies: string[] = [];

/**
 * A copy of deploy/ in a temporary folder with the production overlay's secrets.env written (from
 * `secrets`), and its kustomization filled in as a release does (`fill`): real hosts, addresses and
 * the pushed image's digest. Returns the copy's production overlay.
 */
function releaseCopy(secrets: string, fill: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'deploy-release-'));
  copies.push(root);
  cpSync(join(ROOT, 'deploy'), join(root, 'deploy'), {
    recursive: true,
    filter: (source) => !source.endsWith('secrets.env'),
  });
  const overlay = join(root, 'deploy/overlays/production');
  writeFileSync(join(overlay, 'secrets.env'), secrets);
  if (fill) {
    const kustomization = readFileSync(join(overlay, 'kustomization.yaml'), 'utf8');
    writeFileSync(
      join(overlay, 'kustomization.yaml'),
      kustomization
        .replace(/sha256:0{64}/g, GOOD_DIGEST)
        .replace(/example\.com/g, 'acme-engagement.io')
        .replace(/192\.0\.2\./g, '10.20.0.'),
    );
  }
  return overlay;
}
afterAll(() => copies.forEach((copy) => rmSync(copy, { recursive: true, force: true })));

const overlayDir = (name: string) =>
  name === 'production' ? releaseCopy(GOOD_SECRETS, true) : join(ROOT, 'deploy/overlays', name);

const facts = appFacts({
  variables: VARIABLES,
  loadConfig,
  moduleForRole: (role) => AppModule.forRole(loadConfig({ NODE_ENV: 'test', APP_ROLE: role })),
  scripts: (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
});
const rendered = Object.fromEntries(OVERLAYS.map((name) => [name, renderOverlay(overlayDir(name))]));
const RELEASE = { release: true };

type Pod = {
  spec: {
    terminationGracePeriodSeconds?: number;
    automountServiceAccountToken?: boolean;
    securityContext: Record<string, unknown>;
    containers: Container[];
  };
};
type Container = Record<string, unknown> & {
  env: { name: string; value?: string }[];
  securityContext: Record<string, unknown>;
  resources: Record<string, Record<string, string>>;
  ports: { name: string; containerPort: number }[];
};

/** The production overlay with one object changed. */
function productionWith(
  kind: string,
  name: string | RegExp,
  change: (object: K8sObject & { spec: { template: Pod } & Record<string, unknown> }) => void,
): K8sObject[] {
  const objects = structuredClone(rendered.production);
  const target = objects.find(
    (o) => o.kind === kind && (typeof name === 'string' ? o.metadata.name === name : name.test(o.metadata.name)),
  );
  if (!target) throw new Error(`no ${kind} ${name}`);
  change(target as Parameters<typeof change>[0]);
  return objects;
}
const apiContainer = (o: { spec: { template: Pod } }) => o.spec.template.spec.containers[0];

describe('deploy/ overlays against the app', () => {
  it('reads the facts from the app: both roles serve the probe paths, every variable has a name', () => {
    for (const role of ['api', 'worker'] as const)
      expect(facts.getPaths[role]).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/metrics']));
    expect(facts.getPaths.worker).not.toContain('/api/v1/sessions');
    expect(facts.defaults).toMatchObject({ PORT: '3000', SHUTDOWN_TIMEOUT_MS: '25000' });
    expect(facts.commands).toEqual({ server: ['dist/src/main.js'], migrate: ['dist/src/cli.js', 'migration:run'] });
  });

  const kindsOf = (name: string) =>
    rendered[name].map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);

  it.each(OVERLAYS)(
    '%s renders API and worker Deployments, the migration Job and their companions, with no problem',
    (name) => {
      expect(kindsOf(name)).toEqual(
        expect.arrayContaining([
          'Deployment/engagement-api',
          'Deployment/engagement-worker',
          'Job/engagement-migrate',
          'Service/engagement-api',
          'Ingress/engagement-api',
          'PodDisruptionBudget/engagement-api',
          'PodDisruptionBudget/engagement-worker',
          'NetworkPolicy/engagement-default-deny',
          'ConfigMap/engagement-config',
          'PodMonitor/engagement',
          'PrometheusRule/engagement',
        ]),
      );
      expect(manifestProblems(rendered[name], facts, { release: name === 'production' })).toEqual([]);
    },
  );

  it('keeps the Secret out of deploy/base: production generates it from secrets.env, development has an ExternalSecret make it', () => {
    const base = renderOverlay(join(ROOT, 'deploy/base'));
    expect(base.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(baseProblems(base)).toEqual([]);
    expect(kindsOf('production')).toContain('Secret/engagement-secrets');
    expect(kindsOf('development')).toEqual(expect.arrayContaining(['ExternalSecret/engagement-secrets']));
    expect(kindsOf('development')).not.toContain('Secret/engagement-secrets');
    expect(read('.gitignore')).toMatch(/^deploy\/overlays\/\*\/secrets\.env$/m);
  });

  it('refuses a Secret in deploy/base', () => {
    expect(
      baseProblems([
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'engagement-secrets' },
          stringData: { DATABASE_URL: 'postgres://x' },
        },
      ]),
    ).toEqual([expect.stringContaining('Secret/engagement-secrets: no Secret in deploy/base')]);
  });

  it('scales API and workers apart in production: the API on CPU (HPA), workers on the queue metric (KEDA ScaledObject, no dangling External metric)', () => {
    const hpa = rendered.production.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'engagement-api',
    )?.spec as { metrics: { type: string }[] };
    expect(hpa.metrics.map((m) => m.type)).toEqual(['Resource']);
    expect(rendered.production.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => o.metadata.name)).toEqual(
      ['engagement-api'],
    );
    const scaled = rendered.production.find((o) => o.kind === 'ScaledObject')?.spec as {
      scaleTargetRef: { name: string };
      minReplicaCount: number;
      maxReplicaCount: number;
      triggers: { type: string; metadata: Record<string, string> }[];
    };
    expect(scaled).toMatchObject({
      scaleTargetRef: { name: 'engagement-worker' },
      minReplicaCount: 2,
      maxReplicaCount: 20,
    });
    expect(scaled.triggers.map((t) => t.type)).toEqual(['prometheus', 'cpu']);
    expect(scaled.triggers[0].metadata).toMatchObject({
      query: 'sum(max by (queue) (engagement_queue_waiting))',
      threshold: '100',
    });
  });

  it('serves /metrics on METRICS_PORT (a port no Service routes) and no docs behind the public Ingress', () => {
    const config = rendered.production.find((o) => o.kind === 'ConfigMap')?.data ?? {};
    expect(config).toMatchObject({ METRICS_PORT: '9400', DOCS_ENABLED: 'false', WEBHOOK_ALLOWED_PORTS: '443,80' });
    const service = rendered.production.find((o) => o.kind === 'Service')?.spec as { ports: { targetPort: string }[] };
    expect(service.ports.map((p) => p.targetPort)).toEqual(['http']);
  });

  const API = 'engagement-api';
  it.each<[string, () => K8sObject[], string]>([
    [
      'a readiness probe of an unserved path',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => ((apiContainer(d).readinessProbe as { httpGet: { path: string } }).httpGet.path = '/ready'),
        ),
      'readinessProbe path /ready is not a GET route of this APP_ROLE',
    ],
    [
      'liveness on a served path that is not /healthz',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => ((apiContainer(d).livenessProbe as { httpGet: { path: string } }).httpGet.path = '/readyz'),
        ),
      'livenessProbe probes /readyz, expected /healthz',
    ],
    [
      'a probe on another port',
      () =>
        productionWith(
          'Deployment',
          'engagement-worker',
          (d) => ((apiContainer(d).startupProbe as { httpGet: { port: unknown } }).httpGet.port = 8080),
        ),
      "startupProbe port 8080 is not the app's PORT 3000",
    ],
    [
      'PORT unlike the container port',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.PORT = '8080'),
        ),
      'port "http" is 3000, the app listens on PORT=8080',
    ],
    [
      'an env name the app does not read',
      () =>
        productionWith('Deployment', API, (d) => apiContainer(d).env.push({ name: 'SHUTDOWN_TIMEOUT', value: '1' })),
      'sets SHUTDOWN_TIMEOUT, which src/config/environment.ts does not declare',
    ],
    [
      'a value the app refuses at start',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.LOG_LEVEL = 'verbose'),
        ),
      'the app would not start: Invalid environment variable LOG_LEVEL="verbose"',
    ],
    [
      'a ConfigMap key the app does not read',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.LOGLEVEL = 'info'),
        ),
      'sets LOGLEVEL, which src/config/environment.ts does not declare',
    ],
    [
      'a grace period under drain + timeout + margin',
      () => productionWith('Deployment', API, (d) => (d.spec.template.spec.terminationGracePeriodSeconds = 30)),
      'terminationGracePeriodSeconds 30 is under preStop 0 ms + SHUTDOWN_DRAIN_DELAY_MS 5000 + SHUTDOWN_TIMEOUT_MS 25000 + 5000 ms margin = 35 s',
    ],
    [
      'a preStop sleep eating the grace period',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => (apiContainer(d).lifecycle = { preStop: { exec: { command: ['sleep', '10'] } } }),
        ),
      'terminationGracePeriodSeconds 40 is under preStop 10000 ms',
    ],
    [
      'a longer shutdown timeout',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.SHUTDOWN_TIMEOUT_MS = '40000'),
        ),
      'SHUTDOWN_TIMEOUT_MS 40000',
    ],
    [
      'an image without digest',
      () =>
        productionWith(
          'Job',
          'engagement-migrate',
          (j) => (apiContainer(j).image = 'registry.example.com/engagement-api:1.0.0'),
        ),
      'is not pinned',
    ],
    [
      'a latest tag',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => (apiContainer(d).image = `registry.example.com/engagement-api:latest@sha256:${'a'.repeat(64)}`),
        ),
      'is not pinned',
    ],
    [
      'a writable root filesystem',
      () => productionWith('Deployment', API, (d) => delete apiContainer(d).securityContext.readOnlyRootFilesystem),
      'readOnlyRootFilesystem must be true',
    ],
    [
      'privilege escalation',
      () =>
        productionWith(
          'Job',
          'engagement-migrate',
          (j) => (apiContainer(j).securityContext.allowPrivilegeEscalation = true),
        ),
      'allowPrivilegeEscalation must be false',
    ],
    [
      'capabilities kept',
      () =>
        productionWith(
          'Deployment',
          'engagement-worker',
          (d) => (apiContainer(d).securityContext.capabilities = { drop: ['NET_RAW'] }),
        ),
      'capabilities.drop must include ALL',
    ],
    [
      'root allowed',
      () => productionWith('Deployment', API, (d) => (d.spec.template.spec.securityContext.runAsNonRoot = false)),
      'runAsNonRoot must be true',
    ],
    [
      'no seccomp profile',
      () => productionWith('Deployment', API, (d) => delete d.spec.template.spec.securityContext.seccompProfile),
      'seccompProfile must be RuntimeDefault',
    ],
    [
      'a mounted token',
      () => productionWith('Deployment', API, (d) => (d.spec.template.spec.automountServiceAccountToken = true)),
      'automountServiceAccountToken must be false',
    ],
    [
      'no memory limit',
      () => productionWith('Deployment', 'engagement-worker', (d) => delete apiContainer(d).resources.limits.memory),
      'resources.limits.memory is not set',
    ],
    [
      'a role the app lacks',
      () => productionWith('Deployment', 'engagement-worker', (d) => (apiContainer(d).env[0].value = 'web')),
      'APP_ROLE "web" is not a role of the app',
    ],
    [
      'a server running another entry point',
      () => productionWith('Deployment', API, (d) => (apiContainer(d).command = ['node', 'dist/src/cli.js'])),
      'expected node dist/src/main.js (package.json)',
    ],
    [
      'a migration Job reverting',
      () =>
        productionWith(
          'Job',
          'engagement-migrate',
          (j) => (apiContainer(j).command = ['node', 'dist/src/cli.js', 'migration:revert']),
        ),
      'expected node dist/src/cli.js migration:run',
    ],
    [
      'a Deployment in the migration phase',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => (d.metadata.labels = { ...d.metadata.labels, 'deploy-phase': 'migration' }),
        ),
      'only the migration Job is in phase migration',
    ],
    [
      'an object in no phase',
      () => productionWith('Service', API, (s) => delete s.metadata.labels?.['deploy-phase']),
      'label deploy-phase must be one of',
    ],
    [
      'a Secret the Job needs, applied after it',
      () => productionWith('Secret', /^engagement-secrets/, (s) => (s.metadata.labels = { 'deploy-phase': 'rollout' })),
      'needs Secret/engagement-secrets',
    ],
    [
      'a placeholder secret',
      () =>
        productionWith(
          'Secret',
          /^engagement-secrets/,
          (s) => (s.stringData = { REDIS_URL: 'redis://:CHANGE_ME@10.20.0.20:6379/0' }),
        ),
      'REDIS_URL is a placeholder (CHANGE_ME): fill in secrets.env',
    ],
    [
      'an example host in a secret',
      () =>
        productionWith(
          'Secret',
          /^engagement-secrets/,
          (s) => (s.stringData = { DATABASE_URL: 'postgres://u:Zx81-long-password@postgres.example.internal:5432/e' }),
        ),
      'DATABASE_URL names the example host postgres.example.internal',
    ],
    [
      'an example public URL',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) =>
            ((c as unknown as { data: Record<string, string> }).data.PUBLIC_BASE_URL = 'https://links.example.com'),
        ),
      'PUBLIC_BASE_URL names the example host links.example.com',
    ],
    [
      'the all-zero image digest',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => (apiContainer(d).image = `registry.acme-engagement.io/engagement-api:1.0.0@sha256:${'0'.repeat(64)}`),
        ),
      'has the all-zero placeholder digest',
    ],
    [
      'a documentation address for PostgreSQL',
      () =>
        productionWith(
          'NetworkPolicy',
          'engagement-egress-dependencies',
          (n) =>
            ((n.spec as unknown as { egress: { to: { ipBlock: { cidr: string } }[] }[] }).egress[1].to[0].ipBlock.cidr =
              '192.0.2.10/32'),
        ),
      '192.0.2.10/32 is a documentation address',
    ],
    [
      'an example Ingress host',
      () =>
        productionWith(
          'Ingress',
          API,
          (i) => ((i.spec as unknown as { rules: { host: string }[] }).rules[0].host = 'links.example.com'),
        ),
      'host links.example.com is an example',
    ],
    [
      '/metrics on the port the Ingress routes',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => delete (c as unknown as { data: Record<string, string> }).data.METRICS_PORT,
        ),
      'Ingress/engagement-api routes Deployment/engagement-api port 3000, which serves /metrics to the public',
    ],
    [
      '/docs behind the Ingress',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.DOCS_ENABLED = 'true'),
        ),
      'which serves /docs and the OpenAPI JSON to the public',
    ],
    [
      'a metrics container port unlike METRICS_PORT',
      () => productionWith('Deployment', 'engagement-worker', (d) => (apiContainer(d).ports[1].containerPort = 9401)),
      'port "metrics" is 9401, the app serves /metrics on METRICS_PORT=9400',
    ],
    [
      'workers nobody scrapes',
      () =>
        productionWith(
          'PodMonitor',
          'engagement',
          (m) =>
            ((
              m.spec as unknown as { selector: { matchExpressions: { values: string[] }[] } }
            ).selector.matchExpressions[1].values = ['api']),
        ),
      'Deployment/engagement-worker container app: no PodMonitor scrapes /metrics on port 9400',
    ],
    [
      'webhook ports the egress does not open',
      () =>
        productionWith(
          'ConfigMap',
          /^engagement-config/,
          (c) => ((c as unknown as { data: Record<string, string> }).data.WEBHOOK_ALLOWED_PORTS = '443,8443'),
        ),
      'WEBHOOK_ALLOWED_PORTS=443,8443 but the egress to public addresses opens 443,80',
    ],
    [
      'an egress port the API refuses for webhooks',
      () =>
        productionWith('NetworkPolicy', 'engagement-worker-logo-fetches', (n) =>
          (n.spec as unknown as { egress: { ports: { port: number }[] }[] }).egress[0].ports.pop(),
        ),
      'WEBHOOK_ALLOWED_PORTS=443,80 but the egress to public addresses opens 443',
    ],
    [
      'no ephemeral-storage limit',
      () =>
        productionWith(
          'Job',
          'engagement-migrate',
          (j) => delete apiContainer(j).resources.limits['ephemeral-storage'],
        ),
      'resources.limits.ephemeral-storage is not set',
    ],
    [
      'no zone spread',
      () =>
        productionWith('Deployment', API, (d) =>
          (
            d.spec.template.spec as unknown as { topologySpreadConstraints: unknown[] }
          ).topologySpreadConstraints.splice(0, 1),
        ),
      'topologySpreadConstraints must spread its own pods by topology.kubernetes.io/zone',
    ],
    [
      'a ScaledObject of a missing Deployment',
      () =>
        productionWith(
          'ScaledObject',
          'engagement-worker',
          (o) =>
            ((o.spec as unknown as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'engagement-workers'),
        ),
      'ScaledObject/engagement-worker: scaleTargetRef Deployment/engagement-workers is not rendered',
    ],
    [
      'a second scaler of the workers',
      () =>
        productionWith(
          'HorizontalPodAutoscaler',
          API,
          (h) =>
            ((h.spec as unknown as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'engagement-worker'),
        ),
      'ScaledObject/engagement-worker: HorizontalPodAutoscaler/engagement-api also scales Deployment/engagement-worker',
    ],
    [
      'an HPA on an External metric beside the ScaledObject',
      () =>
        productionWith('HorizontalPodAutoscaler', API, (h) =>
          Object.assign(h.spec as object, {
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'engagement-worker' },
            metrics: [
              {
                type: 'External',
                external: {
                  metric: { name: 'engagement_queue_waiting' },
                  target: { type: 'AverageValue', averageValue: '100' },
                },
              },
            ],
          }),
        ),
      'an External metric needs a metrics adapter',
    ],
    [
      'an envFrom source the overlay lacks',
      () =>
        productionWith(
          'Deployment',
          API,
          (d) => (apiContainer(d).envFrom = [{ secretRef: { name: 'engagement-secret' } }]),
        ),
      'envFrom names Secret/engagement-secret',
    ],
    [
      'a Service targeting no container port',
      () =>
        productionWith(
          'Service',
          API,
          (s) => ((s.spec as unknown as { ports: { targetPort: string }[] }).ports[0].targetPort = 'web'),
        ),
      'targetPort "web" is not a port of the selected pods',
    ],
    [
      'an Ingress to an unknown Service port',
      () =>
        productionWith(
          'Ingress',
          API,
          (i) =>
            ((
              i.spec as unknown as {
                rules: { http: { paths: { backend: { service: { port: { name: string } } } }[] } }[];
              }
            ).rules[0].http.paths[0].backend.service.port.name = 'https'),
        ),
      'backend engagement-api:https is not a rendered Service port',
    ],
    [
      'an HPA of a missing Deployment',
      () =>
        productionWith(
          'HorizontalPodAutoscaler',
          API,
          (h) => ((h.spec as unknown as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'engagement-apis'),
        ),
      'scaleTargetRef Deployment/engagement-apis is not rendered',
    ],
    [
      'a PDB selecting nothing',
      () =>
        productionWith(
          'PodDisruptionBudget',
          API,
          (p) =>
            ((p.spec as unknown as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels[
              'app.kubernetes.io/component'
            ] = 'web'),
        ),
      'PodDisruptionBudget/engagement-api: selects no pods',
    ],
  ])('refuses %s', (_case, objects, expected) => {
    expect(manifestProblems(objects(), facts, RELEASE).join('\n')).toContain(expected);
  });

  it('accepts placeholders outside a release overlay (the development overlay is an example)', () => {
    const objects = productionWith(
      'ConfigMap',
      /^engagement-config/,
      (c) => ((c as unknown as { data: Record<string, string> }).data.PUBLIC_BASE_URL = 'https://links.example.com'),
    );
    expect(manifestProblems(objects, facts)).toEqual([]);
  });
});

describe('docker/ against the app', () => {
  const dockerfile = read('docker/Dockerfile');
  const nodeVersion = read('.nvmrc').trim();

  it('pins the base of .nvmrc by digest and downloads nothing but the install; compose waits for the shutdown', () => {
    expect(dockerfileProblems(dockerfile, nodeVersion)).toEqual([]);
    expect(composeProblems(read('docker/compose.yaml'), facts.defaults)).toEqual([]);
  });

  it.each<[string, string, string]>([
    ['a base by tag only', dockerfile.replace(/@sha256:[0-9a-f]+/, ''), 'ARG NODE_IMAGE must be'],
    [
      'another Node than .nvmrc',
      dockerfile.replace(`NODE_IMAGE=node:${nodeVersion}`, 'NODE_IMAGE=node:24.1.0'),
      'ARG NODE_IMAGE must be',
    ],
    [
      'a stage from another image',
      dockerfile.replace('FROM ${NODE_IMAGE} AS runtime', 'FROM node:24-slim AS runtime'),
      'must start from ${NODE_IMAGE}',
    ],
    [
      'npm fetched at build time',
      dockerfile.replace('npm install --no-audit', 'npx -y npm@10.9.9 install --no-audit'),
      'downloads during the build',
    ],
  ])('refuses %s', (_case, text, expected) => {
    expect(dockerfileProblems(text, nodeVersion).join('\n')).toContain(expected);
  });

  it('refuses a compose stop_grace_period shorter than the shutdown', () => {
    expect(
      composeProblems(
        read('docker/compose.yaml').replace('stop_grace_period: 40s', 'stop_grace_period: 30s'),
        facts.defaults,
      ).join('\n'),
    ).toContain('service api stop_grace_period 30s is under');
  });

  it('has a citus profile: coordinator and two workers registered, migrations then distribution, the app on the coordinator', () => {
    expect(citusProfileProblems(read('docker/compose.yaml'))).toEqual([]);
  });

  it.each<[string, [string, string], string]>([
    ['another image', ['citusdata/citus:13.2.0-pg15', 'citusdata/citus:12.1.6'], 'needs a coordinator and two workers'],
    [
      'a worker not added',
      ["- SELECT citus_add_node('citus-worker-2', 5432)", '- SELECT 1'],
      'must add citus-worker-2',
    ],
    [
      'no distribution step',
      [
        'node dist/src/cli.js migration:run && node dist/src/cli.js db:distribute',
        'node dist/src/cli.js migration:run',
      ],
      'runs migration:run, then db:distribute',
    ],
    [
      'the API on the plain PostgreSQL',
      [
        'postgres://postgres:postgres@citus-coordinator:5432/engagement',
        'postgres://postgres:postgres@postgres:5432/engagement',
      ],
      'DATABASE_URL must point at citus-coordinator',
    ],
    ['the plain stack’s Redis database', ['redis://redis:6379/1', 'redis://redis:6379/0'], 'the queues would mix'],
    [
      'unsafe triggers for the API',
      ["PGOPTIONS: ''\n      APP_ROLE: api", 'PGOPTIONS: -c citus.enable_unsafe_triggers=on\n      APP_ROLE: api'],
      'is for the distribution step only',
    ],
  ])('its citus profile refuses %s', (_case, [from, to], expected) => {
    const compose = read('docker/compose.yaml').replace(from, to);
    expect(compose).not.toEqual(read('docker/compose.yaml'));
    expect(citusProfileProblems(compose).join('\n')).toContain(expected);
  });
});

describe('npm run deploy:check (deploy/check.ts on the built app)', () => {
  const check = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'deploy/check.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env,
      timeout: 120_000,
    });
  let good: string;
  let broken: string;

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist/src/app.module.js')))
      throw new Error('dist/ is missing: run `npm run build` (npm test does) before this spec');
    good = releaseCopy(GOOD_SECRETS, true);
    // An overlay of a filled-in production with a schema error and a rule error; kustomize wants relative paths.
    broken = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    copies.push(broken);
    const patch = (path: string, value: unknown) =>
      `      - op: replace\n        path: ${path}\n        value: ${JSON.stringify(value)}\n`;
    writeFileSync(
      join(broken, 'kustomization.yaml'),
      `resources:\n  - ${relative(broken, good)}\npatches:\n  - target: {kind: Deployment, name: engagement-api}\n    patch: |-\n` +
        patch('/spec/revisionHistoryLimit', 'five') +
        patch('/spec/template/spec/containers/0/readinessProbe/httpGet/path', '/ready'),
    );
  });

  it('passes on the development overlay and on a production overlay filled in for a release: schemas valid (CRDs included), manifests agreeing with the built app', () => {
    const run = check(['deploy/overlays/development', good]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/deploy\/overlays\/development: \d+ objects, 0 problems/);
    expect(run.stdout).toMatch(/deploy\/overlays\/production: \d+ objects, 0 problems/);
    expect(run.status).toBe(0);
  }, 120_000);

  it('fails on a production overlay that would apply placeholders: secrets.env as the example, hosts, addresses and digests as committed', () => {
    const run = check([releaseCopy(read('deploy/overlays/production/secrets.env.example'), false)]);
    for (const expected of [
      'DATABASE_URL is a placeholder (CHANGE_ME): fill in secrets.env',
      'CURSOR_SECRET is a placeholder (CHANGE_ME)',
      'PUBLIC_BASE_URL names the example host links.example.com',
      'Ingress/engagement-api: host links.example.com is an example',
      '192.0.2.10/32 is a documentation address',
      'Deployment/engagement-api container app: image registry.example.com/engagement-api:1.0.0@sha256:0000000000000000000000000000000000000000000000000000000000000000 has the all-zero placeholder digest',
    ]) {
      expect(run.stderr).toContain(expected);
    }
    expect(run.stdout).toContain('deploy:check failed');
    expect(run.status).toBe(1);
  }, 120_000);

  it('fails on the checkout as committed: the production secrets.env is git-ignored and absent', () => {
    const run = check([]);
    expect(run.stdout).toMatch(/deploy\/overlays\/development: \d+ objects, 0 problems/);
    expect(run.stderr).toContain(
      'deploy/overlays/production: secrets.env is missing (git-ignored: copy secrets.env.example and fill it in',
    );
    expect(run.status).toBe(1);
  }, 120_000);

  it('fails on a schema error and a rule error, naming both', () => {
    const run = check([broken]);
    expect(run.stderr).toContain('Deployment/engagement-api: data/spec/revisionHistoryLimit must be integer');
    expect(run.stderr).toContain('readinessProbe path /ready is not a GET route');
    expect(run.status).toBe(1);
  }, 120_000);

  it('validates the custom resources against their schemas (KEDA, prometheus-operator, External Secrets)', () => {
    const wrong = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    copies.push(wrong);
    writeFileSync(
      join(wrong, 'kustomization.yaml'),
      `resources:\n  - ${relative(wrong, join(ROOT, 'deploy/overlays/development'))}\npatches:\n  - target: {kind: PodMonitor, name: engagement}\n    patch: |-\n      - op: replace\n        path: /spec/podMetricsEndpoints\n        value: metrics\n`,
    );
    const run = check([wrong]);
    expect(run.stderr).toContain('PodMonitor/engagement: data/spec/podMetricsEndpoints must be array');
    expect(run.stderr).not.toContain('has no schema');
    expect(run.status).toBe(1);
  }, 120_000);

  it('fails, never skips, when kubectl is missing', () => {
    const run = check([], { ...process.env, PATH: broken });
    expect(run.stderr).toContain('deploy:check needs kubectl on the PATH');
    expect(run.status).toBe(1);
  }, 120_000);
});
