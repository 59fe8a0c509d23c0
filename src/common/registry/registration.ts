/**
 * One implementation of a port, registered at start by the module that owns it: the owner depends
 * on the port's module, not the reverse (dependency inversion without an import cycle).
 */
export abstract class Registration<T> {
  private registered: T | null = null;

  protected constructor(private readonly what: string) {}

  register(implementation: T): void {
    this.registered = implementation;
  }

  get(): T {
    if (!this.registered)
      throw new Error(`No ${this.what} registered: the module that owns them must register at start`);
    return this.registered;
  }
}
