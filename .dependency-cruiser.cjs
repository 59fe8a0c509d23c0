/**
 * Module boundaries, checked by `npm run lint` (docs: README "Architecture"). A rule names the
 * shape the code must keep; `npm run lint:boundaries` alone prints every violation.
 */

/**
 * src/common in layers, lowest first. Each folder (or loose file) of a layer may import its own
 * layer and those below, never a higher one; a new folder of src/common joins a layer here.
 */
const COMMON_LAYERS = [
  {
    layer: 'foundation',
    units: [
      'errors',
      'database',
      'tracing',
      'logging',
      'network',
      'privacy',
      'canonical-json',
      'seeded-random',
      'wiring',
      'time',
    ],
    comment:
      'Domain errors and their HTTP status, the SQL helpers, logs, traces, ports (wiring), the clock and plain functions (the data subject of privacy among them): every other layer builds on them.',
  },
  {
    layer: 'infrastructure',
    units: ['redis', 'counters', 'queue', 'leases', 'batching', 'metrics', 'shutdown'],
    comment: 'Redis, its window counters, Bull queues, leases, batching and metrics: they know nothing of HTTP.',
  },
  {
    layer: 'http',
    units: ['http'],
    comment:
      "The web server's parts (adapter, middleware, headers, client address, OpenAPI decorators and document): no request concern.",
  },
  {
    layer: 'request-checks',
    units: ['validation', 'auth'],
    comment: 'Who is calling and whether the input is valid: they know nothing of limits, idempotency or pages.',
  },
  {
    layer: 'request-services',
    units: ['limits', 'idempotency', 'pagination'],
    comment: 'Limits, Idempotency-Key replay and pages, built on the caller and the validated input.',
  },
  {
    layer: 'pipeline',
    units: ['pipeline'],
    comment: 'The global guards and the error filter in the order of docs/api.md §7.4.',
  },
];
const commonUnits = (units) => `^src/common/(${units.join('|')})(/|\\.)`;

const commonLayerRules = COMMON_LAYERS.slice(0, -1).map(({ layer, units, comment }, i) => ({
  name: `common-${layer}-imports-no-higher-layer`,
  severity: 'error',
  comment: `src/common layer ${i + 1} of ${COMMON_LAYERS.length}, ${layer}: ${comment}`,
  from: { path: commonUnits(units) },
  to: { path: commonUnits(COMMON_LAYERS.slice(i + 1).flatMap((higher) => higher.units)) },
}));

const MIGRATION = { path: '^src/database/migrations/', pathNot: '^src/database/migrations/index\\.ts$' };

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles: a module depends on another or is depended on by it, never both.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'common-knows-no-module',
      severity: 'error',
      comment:
        'src/common and src/config are cross-cutting, below the modules: they import no module and not src/database.',
      from: { path: '^src/(common|config)/' },
      to: { path: '^src/(modules|database)/' },
    },
    ...commonLayerRules,
    {
      name: 'common-folder-has-a-layer',
      severity: 'error',
      comment: 'Every folder and loose file of src/common belongs to one of COMMON_LAYERS, which orders them.',
      from: {},
      to: { path: '^src/common/', pathNot: commonUnits(COMMON_LAYERS.flatMap((layer) => layer.units)) },
    },
    {
      name: 'sql-helpers-import-nothing-of-src',
      severity: 'error',
      comment: 'src/common/database, the SQL helpers under every layer and module, imports nothing else of src/.',
      from: { path: '^src/common/database/' },
      to: { path: '^src/', pathNot: '^src/common/database/' },
    },
    {
      name: 'modules-import-no-data-source',
      severity: 'error',
      comment:
        'src/database (data source, migrations, table owners) sits above the modules: only the entry points (app.module, cli, local services) import it.',
      from: { path: '^src/modules/' },
      to: { path: '^src/database/' },
    },
    {
      name: 'database-knows-no-module',
      severity: 'error',
      comment: 'src/database (data source, migrations, table owners) imports no module.',
      from: { path: '^src/database/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'migration-imports-no-migration',
      severity: 'error',
      comment:
        'A migration is self-contained: the SQL it runs never changes because another file did. Only migrations/index.ts, which lists them, imports them.',
      from: MIGRATION,
      to: { path: '^src/database/migrations/' },
    },
    {
      name: 'migration-imports-only-typeorm',
      severity: 'error',
      comment: "Beyond typeorm's types a migration imports nothing: no code of src/, no other package.",
      from: MIGRATION,
      to: { pathNot: '^(node_modules/typeorm/|src/database/migrations/)' },
    },
    {
      name: 'module-public-api-only',
      severity: 'error',
      comment: "A module imports another only through that module's index.ts.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'custom-link-jobs-knows-no-job-type',
      severity: 'error',
      comment:
        'The custom-link-jobs module runs kinds of work that other modules implement (JobHandler); it imports none of them.',
      from: { path: '^src/modules/custom-link-jobs/' },
      to: {
        path: '^src/modules/(custom-links|thumbnails|engagement|sessions|people|accounts|campaigns|playbook|agent)/',
      },
    },
    {
      name: 'dev-dependencies-as-types-only',
      severity: 'error',
      comment:
        'Production code imports a devDependency only as a type (kysely: the row types), which the build erases; the image installs dependencies only.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      comment: 'Production code never imports tests or their helpers.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '(^test/|\\.spec\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
