import type { Principal } from './principal';

export interface PrincipalCacheOptions {
  /** How long a known key's principal is kept. */
  ttlMs: number;
  /** How long an unknown (or revoked) key is remembered as unknown. */
  negativeTtlMs: number;
  /** Entries per kind; the oldest goes first. */
  maxEntries?: number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Per instance, key hash → principal for known keys and → "unknown" for keys that matched none, so
 * neither a working key nor a repeated wrong one costs a database query per request. Only SHA-256
 * hashes are held, never a key.
 *
 * Entries are served only until `trustedUntil`: PrincipalCacheFeed moves it forward while it hears
 * from Redis, where revocations and new keys are announced, and then forgets what they change.
 * Concurrent misses share one lookup. A lookup that was under way when a change concerning its answer
 * was announced may have read the row before the change: its answer is not remembered, and its
 * callers look the key up again.
 */
export class PrincipalCache {
  private readonly known = new Map<string, Entry<Principal>>();
  private readonly unknown = new Map<string, Entry<null>>();
  private readonly pending = new Map<string, Lookup>();
  private readonly maxEntries: number;
  /** Numbers announcements; `changedAt` holds the number of the last one about a key id or hash. */
  private sequence = 0;
  private readonly changedAt = new Map<string, number>();
  /** Everything changed at this number (the cache was cleared). */
  private clearedAt = 0;
  private trustedUntil = 0;

  constructor(private readonly options: PrincipalCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The remembered answer for a key hash: its principal, null for an unknown key, undefined when it must be looked up. */
  peek(keyHash: string, now = Date.now()): Principal | null | undefined {
    if (!this.isTrusted(now)) return undefined;
    return fresh(this.known, keyHash, now) ?? fresh(this.unknown, keyHash, now);
  }

  /** Looks a key hash up (one lookup shared by concurrent callers) and remembers the answer. */
  async load(
    keyHash: string,
    lookup: (keyHash: string) => Promise<Principal | null>,
    now = Date.now(),
  ): Promise<Principal | null> {
    for (;;) {
      const current = this.pending.get(keyHash) ?? this.start(keyHash, lookup, now);
      const principal = await current.answer;
      if (!current.outdated) return principal;
    }
  }

  /** Serve entries until this time (ms since the epoch); 0 stops serving them at once. */
  trustUntil(time: number): void {
    this.trustedUntil = time;
  }

  /** Whether entries are served now. */
  isTrusted(now = Date.now()): boolean {
    return now < this.trustedUntil;
  }

  /** A key was revoked: its principal goes. */
  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.known) if (entry.value.keyId === keyId) this.known.delete(hash);
    this.changed(`key:${keyId}`);
  }

  /** A key was created: its hash is no longer unknown. */
  forgetUnknown(keyHash: string): void {
    this.unknown.delete(keyHash);
    this.changed(`hash:${keyHash}`);
  }

  /** Announcements may have been missed: nothing remembered or being looked up can be vouched for. */
  clear(): void {
    this.known.clear();
    this.unknown.clear();
    this.changedAt.clear();
    this.clearedAt = ++this.sequence;
  }

  /** Key hashes held, known and unknown (for tests: hashes only, never keys). */
  hashes(): string[] {
    return [...this.known.keys(), ...this.unknown.keys()];
  }

  private start(keyHash: string, lookup: (keyHash: string) => Promise<Principal | null>, now: number): Lookup {
    const startedAt = this.sequence;
    const current: Lookup = { answer: lookup(keyHash), outdated: false };
    this.pending.set(keyHash, current);
    const settle = () => {
      if (this.pending.get(keyHash) === current) this.pending.delete(keyHash);
      // Only lookups under way need the record of what changed when.
      if (this.pending.size === 0) this.changedAt.clear();
    };
    // Runs before the callers' continuations (it was attached first), so they see the verdict.
    current.answer.then((principal) => {
      current.outdated = this.outdated(keyHash, principal, startedAt);
      if (!current.outdated) this.remember(keyHash, principal, now);
      settle();
    }, settle);
    return current;
  }

  /** Whether an answer looked up at `startedAt` may predate an announced change concerning it. */
  private outdated(keyHash: string, principal: Principal | null, startedAt: number): boolean {
    if (this.clearedAt > startedAt) return true;
    const subject = principal ? `key:${principal.keyId}` : `hash:${keyHash}`;
    return (this.changedAt.get(subject) ?? 0) > startedAt;
  }

  private changed(subject: string): void {
    this.sequence++;
    if (this.pending.size === 0) return;
    if (this.changedAt.size >= this.maxEntries) {
      // Too much to track: treat everything under way as outdated.
      this.changedAt.clear();
      this.clearedAt = this.sequence;
      return;
    }
    this.changedAt.set(subject, this.sequence);
  }

  private remember(keyHash: string, principal: Principal | null, now: number): void {
    if (principal) {
      if (this.options.ttlMs > 0)
        put(this.known, keyHash, { value: principal, expiresAt: now + this.options.ttlMs }, this.maxEntries);
    } else if (this.options.negativeTtlMs > 0) {
      put(this.unknown, keyHash, { value: null, expiresAt: now + this.options.negativeTtlMs }, this.maxEntries);
    }
  }
}

interface Lookup {
  answer: Promise<Principal | null>;
  /** Set when the answer arrives: a change concerning it was announced while it was under way. */
  outdated: boolean;
}

function fresh<T>(entries: Map<string, Entry<T>>, keyHash: string, now: number): T | undefined {
  const entry = entries.get(keyHash);
  if (!entry) return undefined;
  if (entry.expiresAt > now) return entry.value;
  entries.delete(keyHash);
  return undefined;
}

function put<T>(entries: Map<string, Entry<T>>, keyHash: string, entry: Entry<T>, maxEntries: number): void {
  entries.delete(keyHash);
  if (entries.size >= maxEntries) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(keyHash, entry);
}
