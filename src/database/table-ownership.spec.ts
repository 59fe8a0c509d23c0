import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TableName } from '../common/database/rows';
import { READ_MODELS, TABLE_OWNERS } from './table-owners';

/**
 * Each module owns its tables (TABLE_OWNERS, src/database/table-owners.ts) and is the only one to
 * write or read them: no other module's code names them in SQL, nor does any module pass SQL to
 * another. A reader asks the owner through its exported, typed query (its service, or a port the
 * owner implements), or joins a read model the owner declares (READ_MODELS: views, read only)
 * (README "Architecture", the reading rule).
 */
const SRC = join(__dirname, '..');
const MODULES = join(SRC, 'modules');
const SQL_TABLE = /\b(FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const owner = new Map<string, string>(Object.entries(TABLE_OWNERS));

/** The tables of other modules that `module`'s source names in SQL, a read of a read model aside. */
function foreignTables(module: string, source: string): string[] {
  const foreign = new Set<string>();
  for (const [, keyword, name] of source.matchAll(SQL_TABLE)) {
    const table = owner.get(name);
    const readsModel = READ_MODELS.has(name as TableName) && (keyword === 'FROM' || keyword === 'JOIN');
    if (table !== undefined && table !== module && !readsModel) foreign.add(name);
  }
  return [...foreign].sort();
}

describe('table ownership', () => {
  it('gives every table an owner that is a module (or a folder of common/)', () => {
    expect(owner.get('sessions')).toBe('sessions');
    expect(owner.get('custom_links')).toBe('custom-links');
    expect(owner.get('custom_link_jobs')).toBe('custom-link-jobs');
    const folders = [...new Set(owner.values())].map((name) => (name.includes('/') ? name : `modules/${name}`));
    expect(folders.filter((folder) => !statSync(join(SRC, folder), { throwIfNoEntry: false })?.isDirectory())).toEqual(
      [],
    );
  });

  it('no module names another module’s tables in SQL', () => {
    const found: Record<string, string[]> = {};
    for (const file of files(MODULES)) {
      const foreign = foreignTables(relative(MODULES, file).split('/')[0], readFileSync(file, 'utf8'));
      if (foreign.length > 0) found[relative(MODULES, file)] = foreign;
    }
    expect(found).toEqual({});
  });

  it('lets another module read a read model, never write it, nor read the tables behind it', () => {
    expect(foreignTables('sessions', 'SELECT 1 FROM sessions s LEFT JOIN person_intents pi ON true')).toEqual([]);
    expect(foreignTables('sessions', 'UPDATE person_intents SET intent_score = 0')).toEqual(['person_intents']);
    expect(foreignTables('sessions', 'INSERT INTO person_intents VALUES (1)')).toEqual(['person_intents']);
    expect(foreignTables('sessions', 'SELECT 1 FROM sessions s JOIN people p ON true')).toEqual(['people']);
    expect(foreignTables('people', 'UPDATE person_intents SET intent_score = 0')).toEqual([]);
  });
});
