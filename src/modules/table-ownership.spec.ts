import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Each module owns its tables (the entities in its entities/ folder); no other module's code names
 * them in SQL. A module that needs another's rows calls its exported service, or embeds SQL that
 * the owner exports (`*.queries.ts`) or registers through a port, so the table names stay with the owner.
 */
const MODULES = join(__dirname);
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'entities' ? [] : files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function owners(): Map<string, string> {
  const owner = new Map<string, string>();
  for (const module of readdirSync(MODULES).filter((name) => statSync(join(MODULES, name)).isDirectory())) {
    const entities = join(MODULES, module, 'entities');
    if (!statSync(join(MODULES, module)).isDirectory() || !readdirSync(join(MODULES, module)).includes('entities'))
      continue;
    for (const file of readdirSync(entities)) {
      for (const match of readFileSync(join(entities, file), 'utf8').matchAll(/@Entity\(\s*'([a-z_]+)'/g))
        owner.set(match[1], module);
    }
  }
  return owner;
}

describe('table ownership', () => {
  const owner = owners();

  it('finds the entities of every module', () => {
    expect(owner.get('sessions')).toBe('sessions');
    expect(owner.get('custom_links')).toBe('custom-links');
    expect(owner.get('custom_link_jobs')).toBe('jobs');
    expect(owner.size).toBeGreaterThanOrEqual(23);
  });

  it('no module names another module’s tables in SQL', () => {
    const found: Record<string, string[]> = {};
    for (const file of files(MODULES)) {
      const module = relative(MODULES, file).split('/')[0];
      const foreign = new Set<string>();
      for (const match of readFileSync(file, 'utf8').matchAll(SQL_TABLE)) {
        const table = owner.get(match[1]);
        if (table !== undefined && table !== module) foreign.add(match[1]);
      }
      if (foreign.size > 0) found[relative(MODULES, file)] = [...foreign].sort();
    }
    expect(found).toEqual({});
  });
});
