import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string) => JSON.parse(readFileSync(join(__dirname, '..', file), 'utf8')) as Record<string, unknown>;

/** client/package.json: the SDK package is versioned as the API it speaks and built against what it ships with. */
describe('client/package.json', () => {
  const client = read('client/package.json') as { version: string; dependencies: Record<string, string> };
  const root = read('package.json') as { devDependencies: Record<string, string> };

  it('has the version of the API (openapi.json info.version)', () => {
    expect(client.version).toBe((read('openapi.json') as { info: { version: string } }).info.version);
  });

  it('depends on the exact versions the repository builds and tests it with', () => {
    expect(Object.keys(client.dependencies).sort()).toEqual(['openapi-fetch', 'standardwebhooks']);
    for (const [name, version] of Object.entries(client.dependencies))
      expect([name, version]).toEqual([name, root.devDependencies[name]]);
  });
});
