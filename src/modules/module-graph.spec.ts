import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Modules depend on each other in one direction only: the graph of "imports from another module"
 * has no cycle, even one that no single chain of files closes (which depcruise's no-circular, a
 * rule over files, would not see). Ports (src/common/wiring) invert the dependencies that would.
 */
const MODULES = __dirname;
const IMPORT = /from '((?:\.\.\/)+)([a-z-]+)(?:\/[^']*)?'/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Each module's set of the modules it imports from. */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(MODULES)) {
    const [module, ...rest] = relative(MODULES, file).split('/');
    if (rest.length === 0) continue;
    const uses = graph.get(module) ?? new Set<string>();
    graph.set(module, uses);
    for (const [, ups, target] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      // `../x` from a module's root, `../../x` from one folder down, and so on: a sibling module.
      if (ups.length / 3 === rest.length && target !== module) uses.add(target);
    }
  }
  return graph;
}

/** A cycle of the graph as a path of modules, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (module: string, path: string[]): string[] | null => {
    if (state.get(module) === 'open') return [...path.slice(path.indexOf(module)), module];
    if (state.get(module) === 'done') return null;
    state.set(module, 'open');
    for (const next of graph.get(module) ?? []) {
      const cycle = visit(next, [...path, module]);
      if (cycle) return cycle;
    }
    state.set(module, 'done');
    return null;
  };
  for (const module of graph.keys()) {
    const cycle = visit(module, []);
    if (cycle) return cycle;
  }
  return null;
}

describe('module graph', () => {
  const graph = moduleGraph();

  it('sees the imports between modules', () => {
    expect([...(graph.get('custom-links') ?? [])].sort()).toEqual([
      'accounts',
      'campaigns',
      'custom-link-jobs',
      'engagement',
      'exports',
      'suppressions',
      'thumbnails',
      'webhooks',
    ]);
    expect([...(graph.get('sessions') ?? [])].sort()).toEqual([
      'accounts',
      'engagement',
      'exports',
      'people',
      'suppressions',
      'webhooks',
    ]);
  });

  it('has no cycle', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('finds a cycle when there is one', () => {
    const withCycle = new Map([...graph].map(([module, uses]) => [module, new Set(uses)]));
    withCycle.get('engagement')!.add('custom-links');
    expect(findCycle(withCycle)).toEqual(expect.arrayContaining(['engagement', 'custom-links']));
  });
});
