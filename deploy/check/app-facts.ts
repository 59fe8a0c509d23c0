import { Logger, RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';

export type Role = 'api' | 'worker' | 'all';
export const ROLES: Role[] = ['api', 'worker', 'all'];

/** What the manifests must agree with, read from the app itself. */
export interface AppFacts {
  /** Every environment variable the app reads, with its default (src/config/environment.ts). */
  defaults: Record<string, string>;
  /** The GET paths each APP_ROLE serves. */
  getPaths: Record<Role, string[]>;
  /** What follows `node` in package.json's scripts: the server and the migration command. */
  commands: { server: string[]; migrate: string[] };
  /** What the app would refuse at start in this environment, one line per variable; [] when it starts. */
  configProblems(env: Record<string, string>): string[];
}

/** Where the facts come from: the built app (deploy/check.ts) or its sources (the jest test). */
export interface AppSources {
  variables: Record<string, { name: string; default: string }>;
  /** The app's own parser: throws an error listing `problems` (ConfigError). */
  loadConfig(env: Record<string, string>): unknown;
  /** The root module of a process with this APP_ROLE (AppModule.forRole). */
  moduleForRole(role: Role): DynamicModule;
  scripts: Record<string, string>;
}

export function appFacts(sources: AppSources): AppFacts {
  // Building one root module per role registers TypeORM's default data source thrice, which it warns of.
  Logger.overrideLogger(['error']);
  try {
    return {
      defaults: Object.fromEntries(Object.values(sources.variables).map((v) => [v.name, v.default])),
      getPaths: Object.fromEntries(ROLES.map((role) => [role, getPathsOf(sources.moduleForRole(role))])) as Record<
        Role,
        string[]
      >,
      commands: {
        server: nodeArguments(sources.scripts, 'start'),
        migrate: nodeArguments(sources.scripts, 'migration:run'),
      },
      configProblems: (env) => {
        try {
          sources.loadConfig(env);
          return [];
        } catch (error) {
          if (Array.isArray((error as { problems?: unknown }).problems))
            return (error as { problems: string[] }).problems;
          throw error;
        }
      },
    };
  } finally {
    Logger.overrideLogger(true);
  }
}

function nodeArguments(scripts: Record<string, string>, name: string): string[] {
  const [program, ...rest] = (scripts[name] ?? '').trim().split(/\s+/);
  if (program !== 'node' || rest.length === 0)
    throw new Error(`package.json script "${name}" is not \`node <file> ...\`: ${JSON.stringify(scripts[name])}`);
  return rest;
}

type ModuleEntry = Type | DynamicModule | { forwardRef: () => ModuleEntry } | Promise<DynamicModule>;

/** GET routes of every controller the module imports, statically or through dynamic modules. */
function getPathsOf(root: DynamicModule): string[] {
  const controllers = new Set<Type>();
  const seen = new Set<unknown>();
  const metadata = (key: string, target: unknown) =>
    (Reflect.getMetadata(key, target as object) ?? []) as ModuleEntry[];
  const visit = (entry: ModuleEntry | undefined) => {
    // An async dynamic module would need awaiting; the app has none, and a path it adds would be reported missing, not accepted.
    if (!entry || seen.has(entry) || entry instanceof Promise) return;
    seen.add(entry);
    if ('forwardRef' in entry) return visit(entry.forwardRef());
    const dynamic = typeof entry === 'object' ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : entry;
    for (const controller of [...(dynamic?.controllers ?? []), ...metadata(MODULE_METADATA.CONTROLLERS, moduleClass)])
      controllers.add(controller as Type);
    for (const imported of [...(dynamic?.imports ?? []), ...metadata(MODULE_METADATA.IMPORTS, moduleClass)])
      visit(imported as ModuleEntry);
  };
  visit(root);
  return [...new Set([...controllers].flatMap(getPathsOfController))].sort();
}

function getPathsOfController(controller: Type): string[] {
  const prefixes = pathList(Reflect.getMetadata(PATH_METADATA, controller));
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((key) => {
    const handler = prototype[key];
    if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) return [];
    const paths = pathList(Reflect.getMetadata(PATH_METADATA, handler));
    return prefixes.flatMap((prefix) =>
      paths.map(
        (path) =>
          `/${[prefix, path]
            .flatMap((p) => p.split('/'))
            .filter(Boolean)
            .join('/')}`,
      ),
    );
  });
}

const pathList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value ?? '/')]);
