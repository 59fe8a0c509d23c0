/**
 * Module boundaries, checked by `npm run lint` (docs: README "Architecture"). A rule names the
 * shape the code must keep; `npm run lint:boundaries` alone prints every violation.
 */
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
      comment: 'src/common and src/config are cross-cutting: they import no domain module.',
      from: { path: '^src/(common|config)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'database-knows-no-module',
      severity: 'error',
      comment: 'src/database imports modules only to list their entities (entities.ts).',
      from: { path: '^src/database/', pathNot: '^src/database/entities\\.ts$' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'module-public-api-only',
      severity: 'error',
      comment: "A module imports another only through that module's index.ts.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'jobs-knows-no-job-type',
      severity: 'error',
      comment: 'The jobs module runs kinds of work that other modules register; it imports none of them.',
      from: { path: '^src/modules/jobs/' },
      to: {
        path: '^src/modules/(custom-links|thumbnails|engagement|sessions|people|accounts|campaigns|playbook|agent)/',
      },
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
    exclude: { path: '(^dist/|^node_modules/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
