import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { appFacts } from '../deploy/check/app-facts';
import { composeProblems, dockerfileProblems } from '../deploy/check/image-build-rules';
import type { K8sObject } from '../deploy/check/k8s';
import { manifestProblems } from '../deploy/check/manifest-rules';
import { renderOverlay } from '../deploy/check/render';
import { AppModule } from './app.module';
import { loadConfig, VARIABLES } from './config/environment';

/**
 * deploy/ (issue 19): every overlay renders with kubectl kustomize and agrees with the app read from
 * its sources; each rule of deploy/check is shown to fail on a manifest that breaks it; and
 * `npm run deploy:check` itself (schemas by kubernetes-models, the built app) passes, and fails
 * loudly on a broken overlay or without kubectl.
 */
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const OVERLAYS = ['development', 'production'];

const facts = appFacts({
  variables: VARIABLES,
  loadConfig,
  moduleForRole: (role) => AppModule.forRole(loadConfig({ NODE_ENV: 'test', APP_ROLE: role })),
  scripts: (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
});
const rendered = Object.fromEntries(OVERLAYS.map((name) => [name, renderOverlay(join(ROOT, 'deploy/overlays', name))]));

type Pod = { spec: { terminationGracePeriodSeconds?: number; automountServiceAccountToken?: boolean; securityContext: Record<string, unknown>; containers: Container[] } };
type Container = Record<string, unknown> & { env: { name: string; value?: string }[]; securityContext: Record<string, unknown>; resources: Record<string, Record<string, string>>; ports: { name: string; containerPort: number }[] };

/** The production overlay with one object changed. */
function productionWith(kind: string, name: string | RegExp, change: (object: K8sObject & { spec: { template: Pod } & Record<string, unknown> }) => void): K8sObject[] {
  const objects = structuredClone(rendered.production);
  const target = objects.find((o) => o.kind === kind && (typeof name === 'string' ? o.metadata.name === name : name.test(o.metadata.name)));
  if (!target) throw new Error(`no ${kind} ${name}`);
  change(target as Parameters<typeof change>[0]);
  return objects;
}
const apiContainer = (o: { spec: { template: Pod } }) => o.spec.template.spec.containers[0];

describe('deploy/ overlays against the app', () => {
  it('reads the facts from the app: both roles serve the probe paths, every variable has a name', () => {
    for (const role of ['api', 'worker'] as const) expect(facts.getPaths[role]).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/metrics']));
    expect(facts.getPaths.worker).not.toContain('/api/v1/sessions');
    expect(facts.defaults).toMatchObject({ PORT: '3000', SHUTDOWN_TIMEOUT_MS: '25000' });
    expect(facts.commands).toEqual({ server: ['dist/src/main.js'], migrate: ['dist/src/cli.js', 'migration:run'] });
  });

  it.each(OVERLAYS)('%s renders API and worker Deployments, the migration Job and their companions, with no problem', (name) => {
    const kinds = rendered[name].map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);
    expect(kinds).toEqual(expect.arrayContaining(['Deployment/engagement-api', 'Deployment/engagement-worker', 'Job/engagement-migrate', 'Service/engagement-api', 'Ingress/engagement-api', 'PodDisruptionBudget/engagement-api', 'PodDisruptionBudget/engagement-worker', 'NetworkPolicy/engagement-default-deny', 'ConfigMap/engagement-config', 'Secret/engagement-secrets']));
    expect(manifestProblems(rendered[name], facts)).toEqual([]);
  });

  it('scales API and workers apart in production: the API on CPU, workers on the external queue metric', () => {
    const hpa = (name: string) => rendered.production.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === name)?.spec as { metrics: { type: string; external?: { metric: { name: string } } }[] };
    expect(hpa('engagement-api').metrics.map((m) => m.type)).toEqual(['Resource']);
    expect(hpa('engagement-worker').metrics.find((m) => m.type === 'External')?.external?.metric.name).toBe('engagement_queue_waiting');
  });

  const API = 'engagement-api';
  it.each<[string, () => K8sObject[], string]>([
    ['a readiness probe of an unserved path', () => productionWith('Deployment', API, (d) => ((apiContainer(d).readinessProbe as { httpGet: { path: string } }).httpGet.path = '/ready')), 'readinessProbe path /ready is not a GET route of this APP_ROLE'],
    ['liveness on a served path that is not /healthz', () => productionWith('Deployment', API, (d) => ((apiContainer(d).livenessProbe as { httpGet: { path: string } }).httpGet.path = '/readyz')), 'livenessProbe probes /readyz, expected /healthz'],
    ['a probe on another port', () => productionWith('Deployment', 'engagement-worker', (d) => ((apiContainer(d).startupProbe as { httpGet: { port: unknown } }).httpGet.port = 8080)), 'startupProbe port 8080 is not the app\'s PORT 3000'],
    ['PORT unlike the container port', () => productionWith('ConfigMap', /^engagement-config/, (c) => ((c as unknown as { data: Record<string, string> }).data.PORT = '8080')), 'port "http" is 3000, the app listens on PORT=8080'],
    ['an env name the app does not read', () => productionWith('Deployment', API, (d) => apiContainer(d).env.push({ name: 'SHUTDOWN_TIMEOUT', value: '1' })), 'sets SHUTDOWN_TIMEOUT, which src/config/environment.ts does not declare'],
    ['a value the app refuses at start', () => productionWith('ConfigMap', /^engagement-config/, (c) => ((c as unknown as { data: Record<string, string> }).data.LOG_LEVEL = 'verbose')), 'the app would not start: Invalid environment variable LOG_LEVEL="verbose"'],
    ['a ConfigMap key the app does not read', () => productionWith('ConfigMap', /^engagement-config/, (c) => ((c as unknown as { data: Record<string, string> }).data.LOGLEVEL = 'info')), 'sets LOGLEVEL, which src/config/environment.ts does not declare'],
    ['a grace period under drain + timeout + margin', () => productionWith('Deployment', API, (d) => (d.spec.template.spec.terminationGracePeriodSeconds = 30)), 'terminationGracePeriodSeconds 30 is under preStop 0 ms + SHUTDOWN_DRAIN_DELAY_MS 5000 + SHUTDOWN_TIMEOUT_MS 25000 + 5000 ms margin = 35 s'],
    ['a preStop sleep eating the grace period', () => productionWith('Deployment', API, (d) => (apiContainer(d).lifecycle = { preStop: { exec: { command: ['sleep', '10'] } } })), 'terminationGracePeriodSeconds 40 is under preStop 10000 ms'],
    ['a longer shutdown timeout', () => productionWith('ConfigMap', /^engagement-config/, (c) => ((c as unknown as { data: Record<string, string> }).data.SHUTDOWN_TIMEOUT_MS = '40000')), 'SHUTDOWN_TIMEOUT_MS 40000'],
    ['an image without digest', () => productionWith('Job', 'engagement-migrate', (j) => (apiContainer(j).image = 'registry.example.com/engagement-api:1.0.0')), 'is not pinned'],
    ['a latest tag', () => productionWith('Deployment', API, (d) => (apiContainer(d).image = `registry.example.com/engagement-api:latest@sha256:${'a'.repeat(64)}`)), 'is not pinned'],
    ['a writable root filesystem', () => productionWith('Deployment', API, (d) => delete apiContainer(d).securityContext.readOnlyRootFilesystem), 'readOnlyRootFilesystem must be true'],
    ['privilege escalation', () => productionWith('Job', 'engagement-migrate', (j) => (apiContainer(j).securityContext.allowPrivilegeEscalation = true)), 'allowPrivilegeEscalation must be false'],
    ['capabilities kept', () => productionWith('Deployment', 'engagement-worker', (d) => (apiContainer(d).securityContext.capabilities = { drop: ['NET_RAW'] })), 'capabilities.drop must include ALL'],
    ['root allowed', () => productionWith('Deployment', API, (d) => (d.spec.template.spec.securityContext.runAsNonRoot = false)), 'runAsNonRoot must be true'],
    ['no seccomp profile', () => productionWith('Deployment', API, (d) => delete d.spec.template.spec.securityContext.seccompProfile), 'seccompProfile must be RuntimeDefault'],
    ['a mounted token', () => productionWith('Deployment', API, (d) => (d.spec.template.spec.automountServiceAccountToken = true)), 'automountServiceAccountToken must be false'],
    ['no memory limit', () => productionWith('Deployment', 'engagement-worker', (d) => delete apiContainer(d).resources.limits.memory), 'resources.limits.memory is not set'],
    ['a role the app lacks', () => productionWith('Deployment', 'engagement-worker', (d) => (apiContainer(d).env[0].value = 'web')), 'APP_ROLE "web" is not a role of the app'],
    ['a server running another entry point', () => productionWith('Deployment', API, (d) => (apiContainer(d).command = ['node', 'dist/src/cli.js'])), 'expected node dist/src/main.js (package.json)'],
    ['a migration Job reverting', () => productionWith('Job', 'engagement-migrate', (j) => (apiContainer(j).command = ['node', 'dist/src/cli.js', 'migration:revert'])), 'expected node dist/src/cli.js migration:run'],
    ['a Deployment in the migration phase', () => productionWith('Deployment', API, (d) => (d.metadata.labels = { ...d.metadata.labels, 'deploy-phase': 'migration' })), 'only the migration Job is in phase migration'],
    ['an object in no phase', () => productionWith('Service', API, (s) => delete s.metadata.labels?.['deploy-phase']), 'label deploy-phase must be one of'],
    ['a Secret the Job needs, applied after it', () => productionWith('Secret', 'engagement-secrets', (s) => (s.metadata.labels = { 'deploy-phase': 'rollout' })), 'Job/engagement-migrate needs Secret/engagement-secrets, which must be in phase prerequisites'],
    ['a real-looking secret', () => productionWith('Secret', 'engagement-secrets', (s) => (s.stringData = { ...s.stringData, REDIS_URL: 'redis://:hunter2@redis:6379/0' })), 'REDIS_URL is not a placeholder'],
    ['an envFrom source the overlay lacks', () => productionWith('Deployment', API, (d) => (apiContainer(d).envFrom = [{ secretRef: { name: 'engagement-secret' } }])), 'envFrom names Secret/engagement-secret'],
    ['a Service targeting no container port', () => productionWith('Service', API, (s) => ((s.spec as unknown as { ports: { targetPort: string }[] }).ports[0].targetPort = 'web')), 'targetPort "web" is not a port of the selected pods'],
    ['an Ingress to an unknown Service port', () => productionWith('Ingress', API, (i) => ((i.spec as unknown as { rules: { http: { paths: { backend: { service: { port: { name: string } } } }[] } }[] }).rules[0].http.paths[0].backend.service.port.name = 'https')), 'backend engagement-api:https is not a rendered Service port'],
    ['an HPA of a missing Deployment', () => productionWith('HorizontalPodAutoscaler', 'engagement-worker', (h) => ((h.spec as unknown as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'engagement-workers')), 'scaleTargetRef Deployment/engagement-workers is not rendered'],
    ['a PDB selecting nothing', () => productionWith('PodDisruptionBudget', API, (p) => ((p.spec as unknown as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels['app.kubernetes.io/component'] = 'web')), 'PodDisruptionBudget/engagement-api: selects no pods'],
  ])('refuses %s', (_case, objects, expected) => {
    expect(manifestProblems(objects(), facts).join('\n')).toContain(expected);
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
    ['another Node than .nvmrc', dockerfile.replace(`NODE_IMAGE=node:${nodeVersion}`, 'NODE_IMAGE=node:24.1.0'), 'ARG NODE_IMAGE must be'],
    ['a stage from another image', dockerfile.replace('FROM ${NODE_IMAGE} AS runtime', 'FROM node:24-slim AS runtime'), 'must start from ${NODE_IMAGE}'],
    ['npm fetched at build time', dockerfile.replace('npm install --no-audit', 'npx -y npm@10.9.9 install --no-audit'), 'downloads during the build'],
  ])('refuses %s', (_case, text, expected) => {
    expect(dockerfileProblems(text, nodeVersion).join('\n')).toContain(expected);
  });

  it('refuses a compose stop_grace_period shorter than the shutdown', () => {
    expect(composeProblems(read('docker/compose.yaml').replace('stop_grace_period: 40s', 'stop_grace_period: 30s'), facts.defaults).join('\n')).toContain('service api stop_grace_period 30s is under');
  });
});

describe('npm run deploy:check (deploy/check.ts on the built app)', () => {
  const check = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'deploy/check.ts', ...args], { cwd: ROOT, encoding: 'utf8', env, timeout: 120_000 });
  let broken: string;

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist/src/app.module.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does) before this spec');
    // An overlay of production with a schema error and a rule error; kustomize wants relative paths.
    broken = mkdtempSync(join(tmpdir(), 'deploy-check-'));
    const patch = (path: string, value: unknown) => `      - op: replace\n        path: ${path}\n        value: ${JSON.stringify(value)}\n`;
    writeFileSync(
      join(broken, 'kustomization.yaml'),
      `resources:\n  - ${relative(broken, join(ROOT, 'deploy/overlays/production'))}\npatches:\n  - target: {kind: Deployment, name: engagement-api}\n    patch: |-\n` +
        patch('/spec/revisionHistoryLimit', 'five') +
        patch('/spec/template/spec/containers/0/readinessProbe/httpGet/path', '/ready'),
    );
  });
  afterAll(() => rmSync(broken, { recursive: true, force: true }));

  it('passes on every overlay: schemas valid, manifests agreeing with the built app', () => {
    const run = check([]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/deploy\/overlays\/development: \d+ objects, 0 problems/);
    expect(run.stdout).toMatch(/deploy\/overlays\/production: \d+ objects, 0 problems/);
    expect(run.status).toBe(0);
  }, 120_000);

  it('fails on a schema error and a rule error, naming both', () => {
    const run = check([broken]);
    expect(run.stderr).toContain('Deployment/engagement-api: data/spec/revisionHistoryLimit must be integer');
    expect(run.stderr).toContain('readinessProbe path /ready is not a GET route');
    expect(run.status).toBe(1);
  }, 120_000);

  it('fails, never skips, when kubectl is missing', () => {
    const run = check([], { ...process.env, PATH: broken });
    expect(run.stderr).toContain('deploy:check needs kubectl on the PATH');
    expect(run.status).toBe(1);
  }, 120_000);
});
