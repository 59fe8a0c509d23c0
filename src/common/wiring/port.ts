import { Inject, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';

/**
 * A port lets a module call code that a module depending on it owns, without importing it (the
 * owner of the port would otherwise import its implementer: a cycle). The port's owner declares it
 * once (definePort, defineKeyedPort) and imports its `module`; the implementing provider wears
 * `@ImplementsPort(port)` in its own module, which imports the owner's. At module init the port
 * finds its implementations among the application's providers (Nest's DiscoveryService) and stops
 * the start when they do not fit, naming the port and the providers found. Its consumers inject it
 * (`@InjectPort(port)`) and call it as they would any provider.
 */
export abstract class Port<T extends object, Injected> {
  /** The metadata `@ImplementsPort` sets, by which discovery finds the implementations. */
  readonly marker = DiscoveryService.createDecorator();
  readonly token: symbol;
  /** For the owner's module imports: provides the port to the owner's providers and checks it at init. */
  readonly module: DynamicModule;

  protected constructor(readonly name: string) {
    this.token = Symbol(name);
    this.module = portModule(this);
  }

  /** What the consumers of one application are given before the implementations are known. */
  abstract standIn(): Injected;

  /** Points the stand-in at the implementations found, or throws why they do not fit. */
  abstract bind(standIn: Injected, found: Implementation<T>[]): void;
}

/** A provider that implements a port, and where it is (for messages). */
export interface Implementation<T> {
  instance: T;
  provider: string;
}

/** The implementations of a keyed port by key, as its consumers see them. */
export interface Keyed<K extends string, T> {
  /** The implementation for `key` (one for each required key: checked at start). */
  of(key: K): T;
  all(): readonly T[];
}

/**
 * Nest creates every instance before it knows which one implements what (an implementation may
 * depend on a consumer of its port: the link job handler uses the jobs service, which runs the
 * handlers), so a consumer is given a stand-in that forwards to the implementation found at init.
 * Nest calls the lifecycle hooks of the implementation itself: the stand-in hides them, and is no
 * thenable (Nest awaits what a factory returns).
 */
const NOT_FORWARDED = new Set<PropertyKey>([
  'then',
  'constructor',
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

/** A port with exactly one implementation; its consumers inject T. */
class SinglePort<T extends object> extends Port<T, T> {
  private readonly bound = new WeakMap<T, { implementation: T | null }>();

  constructor(name: string) {
    super(name);
  }

  standIn(): T {
    const binding: { implementation: T | null } = { implementation: null };
    const standIn = new Proxy({} as T, {
      get(_, key) {
        const implementation = binding.implementation;
        if (implementation === null || NOT_FORWARDED.has(key)) return undefined;
        const member: unknown = Reflect.get(implementation, key);
        return typeof member === 'function' ? (member as () => unknown).bind(implementation) : member;
      },
    });
    this.bound.set(standIn, binding);
    return standIn;
  }

  bind(standIn: T, found: Implementation<T>[]): void {
    if (found.length === 0)
      throw new Error(`Port "${this.name}": no provider implements it; exactly one must (@ImplementsPort).`);
    if (found.length > 1)
      throw new Error(
        `Port "${this.name}": ${found.length} providers implement it (${names(found)}); exactly one may.`,
      );
    (this.bound.get(standIn) as { implementation: T | null }).implementation = found[0].instance;
  }
}

class KeyedImplementations<K extends string, T> implements Keyed<K, T> {
  readonly byKey = new Map<string, T>();
  readonly list: T[] = [];

  constructor(private readonly port: string) {}

  of(key: K): T {
    const implementation = this.byKey.get(key);
    if (implementation === undefined) throw new Error(`Port "${this.port}": no provider implements "${key}".`);
    return implementation;
  }

  all(): readonly T[] {
    return this.list;
  }
}

/** A port with one implementation per key, each implementation naming its keys; its consumers inject Keyed<K, T>. */
class KeyedPort<T extends object, K extends string> extends Port<T, Keyed<K, T>> {
  constructor(
    name: string,
    private readonly keysOf: (implementation: T) => K | readonly K[],
    private readonly required: readonly K[],
  ) {
    super(name);
  }

  standIn(): Keyed<K, T> {
    return new KeyedImplementations<K, T>(this.name);
  }

  bind(standIn: Keyed<K, T>, found: Implementation<T>[]): void {
    const byKey = new Map<string, Implementation<T>[]>();
    for (const implementation of found) {
      for (const key of [this.keysOf(implementation.instance)].flat())
        byKey.set(key, [...(byKey.get(key) ?? []), implementation]);
    }
    const problems = [
      ...[...byKey]
        .filter(([, implementations]) => implementations.length > 1)
        .map(([key, implementations]) => `"${key}" is implemented by ${names(implementations)}`),
      ...this.required.filter((key) => !byKey.has(key)).map((key) => `no provider implements "${key}"`),
    ];
    if (problems.length > 0)
      throw new Error(`Port "${this.name}": ${problems.join('; ')} (one provider per key; found: ${names(found)}).`);
    const keyed = standIn as KeyedImplementations<K, T>;
    for (const [key, [implementation]] of byKey) keyed.byKey.set(key, implementation.instance);
    keyed.list.push(...found.map((implementation) => implementation.instance));
  }
}

const names = (found: Implementation<unknown>[]) =>
  found.length === 0 ? 'none' : found.map((implementation) => implementation.provider).join(', ');

/** The module the port's owner imports: the port's stand-in, pointed at its implementations at init. */
function portModule<T extends object, Injected>(port: Port<T, Injected>): DynamicModule {
  @Module({})
  class PortModule implements OnModuleInit {
    constructor(
      @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
      @Inject(port.token) private readonly standIn: Injected,
    ) {}

    onModuleInit(): void {
      const found = this.discovery.getProviders({ metadataKey: port.marker.KEY }).map((wrapper) => {
        const provider = `${String(wrapper.name)} (${wrapper.host?.name ?? 'no module'})`;
        if (!wrapper.instance) throw new Error(`Port "${port.name}": ${provider} must be a singleton provider.`);
        return { instance: wrapper.instance as T, provider };
      });
      port.bind(this.standIn, found);
    }
  }
  return {
    module: PortModule,
    imports: [DiscoveryModule],
    providers: [{ provide: port.token, useFactory: () => port.standIn() }],
    exports: [port.token],
  };
}

/** Declares a port that exactly one provider of the application implements. */
export function definePort<T extends object>(name: string): Port<T, T> {
  return new SinglePort<T>(name);
}

/**
 * Declares a port that providers implement per key (`keysOf` reads an implementation's keys): a
 * key implemented twice, or a `required` key not implemented, stops the start.
 */
export function defineKeyedPort<T extends object, K extends string = string>(
  name: string,
  options: { keysOf: (implementation: T) => K | readonly K[]; required?: readonly K[] },
): Port<T, Keyed<K, T>> {
  return new KeyedPort<T, K>(name, options.keysOf, options.required ?? []);
}

/** Worn by a provider that implements `port` (the class must implement the port's interface). */
export function ImplementsPort<T extends object>(port: Port<T, unknown>) {
  return <C extends abstract new (...args: never[]) => T>(target: C): void => {
    port.marker()(target);
  };
}

/** Injects `port` into a consumer: the implementation (definePort) or the implementations by key (defineKeyedPort). */
export const InjectPort = (port: Port<object, unknown>) => Inject(port.token);
