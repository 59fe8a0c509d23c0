// Nest 12 and a few of its dependencies ship ESM only (kysely too, which the row-type generation
// uses in test/support/schema-types.ts); swc turns them into CommonJS for jest.
const esmPackages = [
  '@nestjs',
  'uuid',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'es-toolkit',
  'libphonenumber-js',
  '@standard-schema',
  'kysely',
];
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const common = {
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
};
module.exports = {
  // One process holding every spec file of a run grew to 4 GB by the middle of it (a 2-core machine:
  // jest runs in band), and its collector's pauses, seconds long, failed the specs that time answers
  // (test/outages-under-load.e2e-spec.ts). With a limit jest runs the files in a worker process it
  // replaces once its heap passes it.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/client/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/jest-timeout.ts', '<rootDir>/test/support/contract-check.ts'],
    },
  ],
};
