import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TABLE_OWNERS } from './table-owners';

/**
 * Each module owns its tables (TABLE_OWNERS, src/database/table-owners.ts) and is the only one to
 * write or read them: no other module's code names them in SQL, nor does any module pass SQL to
 * another. A reader selects its own rows, then asks the owner for the related ones through the
 * owner's exported, typed query (its service, or a port the owner implements), by ids in one
 * batched query (README "Architecture", the reading rule).
 */
const SRC = join(__dirname, '..');
const MODULES = join(SRC, 'modules');
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const owner = new Map<string, string>(Object.entries(TABLE_OWNERS));

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
