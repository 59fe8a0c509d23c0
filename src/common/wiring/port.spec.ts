import { Injectable, Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { defineKeyedPort, definePort, ImplementsPort, InjectPort, type Keyed } from './port';

interface Greeter {
  greet(name: string): string;
}
const GREETER = definePort<Greeter>('greeter');

interface Source {
  resource: 'a' | 'b';
}
const SOURCES = defineKeyedPort<Source, 'a' | 'b'>('sources', { keysOf: (source) => source.resource, required: ['a'] });

/** The port's owner: its consumers inject the port, and it imports none of the implementers. */
@Injectable()
class Consumer {
  constructor(
    @InjectPort(GREETER) readonly greeter: Greeter,
    @InjectPort(SOURCES) readonly sources: Keyed<'a' | 'b', Source>,
  ) {}
}
@Module({ imports: [GREETER.module, SOURCES.module], providers: [Consumer], exports: [Consumer] })
class OwnerModule {}

/** An implementation that depends on the consumer of its port (as the link job handler does on the jobs service). */
@Injectable()
@ImplementsPort(GREETER)
class EnglishGreeter implements Greeter {
  constructor(private readonly consumer: Consumer) {}

  greet(name: string): string {
    return `Hello ${name} from ${this.consumer.constructor.name}`;
  }
}

@Injectable()
@ImplementsPort(GREETER)
class FrenchGreeter implements Greeter {
  greet(name: string): string {
    return `Bonjour ${name}`;
  }
}

@Injectable()
@ImplementsPort(SOURCES)
class SourceA implements Source {
  readonly resource = 'a';
}

@Injectable()
@ImplementsPort(SOURCES)
class OtherSourceA implements Source {
  readonly resource = 'a';
}

@Injectable()
@ImplementsPort(SOURCES)
class SourceB implements Source {
  readonly resource = 'b';
}

/** An application of the owner and a module per implementation, each importing the owner. */
async function start(...implementations: Type[]) {
  const modules = implementations.map((implementation) => {
    @Module({ imports: [OwnerModule], providers: [implementation] })
    class ImplementerModule {}
    return ImplementerModule;
  });
  const moduleRef = await Test.createTestingModule({ imports: [OwnerModule, ...modules] }).compile();
  return { moduleRef, init: () => moduleRef.init() };
}

describe('ports', () => {
  it('gives the consumer the one implementation and the implementations by key', async () => {
    const { moduleRef, init } = await start(EnglishGreeter, SourceA, SourceB);
    await init();
    const consumer = moduleRef.get(Consumer);
    expect(consumer.greeter.greet('Ada')).toBe('Hello Ada from Consumer');
    expect(consumer.sources.of('b')).toBeInstanceOf(SourceB);
    expect(
      consumer.sources
        .all()
        .map((source) => source.resource)
        .sort(),
    ).toEqual(['a', 'b']);
    await moduleRef.close();
  });

  it('stops the start when no provider implements an exactly-one port', async () => {
    const { init } = await start(SourceA);
    await expect(init()).rejects.toThrow('Port "greeter": no provider implements it; exactly one must');
  });

  it('stops the start when two providers implement an exactly-one port, naming both', async () => {
    const { init } = await start(EnglishGreeter, FrenchGreeter, SourceA);
    const message = await init().then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^Port "greeter": 2 providers implement it \(.+\); exactly one may\.$/);
    expect(message).toContain('EnglishGreeter (ImplementerModule)');
    expect(message).toContain('FrenchGreeter (ImplementerModule)');
  });

  it('stops the start when two providers implement one key of a keyed port, naming both', async () => {
    const { init } = await start(EnglishGreeter, SourceA, OtherSourceA);
    const message = await init().then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^Port "sources": "a" is implemented by .+ \(one provider per key; found: .+\)\.$/);
    expect(message).toContain('OtherSourceA (ImplementerModule)');
    expect(message).toMatch(/\bSourceA \(ImplementerModule\)/);
  });

  it('stops the start when no provider implements a required key', async () => {
    const { init } = await start(EnglishGreeter, SourceB);
    await expect(init()).rejects.toThrow(
      'Port "sources": no provider implements "a" (one provider per key; found: SourceB (ImplementerModule)).',
    );
  });
});
