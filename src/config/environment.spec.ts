import { ConfigError, loadConfig, VARIABLES } from './environment';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      appRole: 'all',
      port: 3000,
      limits: { requestsPerMinute: 120, transcriptDailyLimit: 2000, linkMutationsPerMinute: 10, linkCreationUnitsPerHour: 5000 },
      playbookApplyEnabled: true,
    });
  });

  it('reads and parses variables, trimming trailing slashes of base URLs', () => {
    const config = loadConfig({ APP_ROLE: 'worker', PORT: '8080', PUBLIC_BASE_URL: 'https://links.example.com/', PLAYBOOK_APPLY_ENABLED: 'false' });
    expect(config).toMatchObject({ appRole: 'worker', port: 8080, publicBaseUrl: 'https://links.example.com', playbookApplyEnabled: false });
  });

  it('reports every bad variable on its own line', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', APP_ROLE: 'web', REDIS_URL: 'localhost', RATE_LIMIT_PER_MINUTE: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe('Invalid environment variable APP_ROLE="web": must be one of all, api, worker.');
    expect(problems.map((p) => p.split('=')[0])).toEqual([
      'Invalid environment variable APP_ROLE',
      'Invalid environment variable PORT',
      'Invalid environment variable REDIS_URL',
      'Invalid environment variable RATE_LIMIT_PER_MINUTE',
    ]);
    expect(problems.every((p) => !p.includes('\n'))).toBe(true);
  });

  it('declares a default for every variable that parses', () => {
    for (const variable of Object.values(VARIABLES)) expect(() => (variable.parse as (raw: string) => unknown)(variable.default)).not.toThrow();
  });
});

describe('.env.example', () => {
  it('lists every variable with its default', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const example: string = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '..', '.env.example'), 'utf8');
    for (const variable of Object.values(VARIABLES)) expect(example).toContain(`\n${variable.name}=${variable.default}\n`);
  });
});
