import type { Principal } from './principal';

/**
 * A short-lived map of key hash → principal, so a known key costs no database query per request.
 * Entries live `ttlMs`: a revoked key stops working within that time on every instance.
 * Concurrent misses for one hash share a single lookup.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<Principal | null>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10000,
  ) {}

  async get(keyHash: string, load: (keyHash: string) => Promise<Principal | null>, now = Date.now()): Promise<Principal | null> {
    const entry = this.entries.get(keyHash);
    if (entry && entry.expiresAt > now) return entry.principal;
    if (entry) this.entries.delete(keyHash);
    let loading = this.pending.get(keyHash);
    if (!loading) {
      loading = load(keyHash).finally(() => this.pending.delete(keyHash));
      this.pending.set(keyHash, loading);
    }
    const principal = await loading;
    if (principal && this.ttlMs > 0) this.remember(keyHash, principal, now);
    return principal;
  }


  private remember(keyHash: string, principal: Principal, now: number): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { principal, expiresAt: now + this.ttlMs });
  }
}
