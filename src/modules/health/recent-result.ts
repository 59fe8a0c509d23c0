/**
 * A computation shared by every caller for `ttlMs`: concurrent callers wait for the one in flight,
 * later ones within `ttlMs` of its completion get its result. Keeps probe routes cheap under a flood.
 */
export class RecentResult<T> {
  private current?: { value: Promise<T>; expiresAt: number };

  constructor(
    private readonly ttlMs: number,
    private readonly compute: () => Promise<T>,
    private readonly clock: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    const now = this.clock();
    if (this.current && this.current.expiresAt > now) return this.current.value;
    const entry = { value: this.compute(), expiresAt: Number.POSITIVE_INFINITY };
    this.current = entry;
    // The result lives from its completion, failed or not.
    entry.value.then(
      () => (entry.expiresAt = this.clock() + this.ttlMs),
      () => (entry.expiresAt = this.clock() + this.ttlMs),
    );
    return entry.value;
  }
}
