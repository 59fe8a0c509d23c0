import { endOfWindowOpenedAt } from './windows';
import { Cluster } from 'ioredis';
import type { RedisClient } from '../redis/redis.module';

/**
 * Fixed-window counters in Redis, checked and charged in one Lua script so that every API instance
 * sees one count. A charge that would pass any window's limit is refused whole and charges nothing
 * (a refused request does not eat the budget).
 *
 * A window opens with its first charge and ends `ttlMs` later on a whole second
 * (endOfWindowOpenedAt). That end is the key's absolute expiry (PEXPIREAT, read back with
 * PEXPIRETIME, Redis 7), so every instance reports the same X-RateLimit-Reset, to the second.
 */
export interface Window {
  /** Windows charged in one call share a hash tag (`{organization}`): a Redis Cluster runs a script on one slot only. */
  key: string;
  limit: number;
  /** Lifetime of the window from its first charge. */
  ttlMs: number;
}

export interface WindowState {
  count: number;
  /** When the window ends and its count starts again from zero, in Unix milliseconds (a whole second). */
  endsAt: number;
}

export interface ChargeResult {
  allowed: boolean;
  /** The state of every window after the call, in the order given. */
  windows: WindowState[];
  /** Index of the first window that refused the charge, or -1. */
  refusedBy: number;
}

// KEYS: window keys. ARGV: cost, then limit and the end of a window opened now, per key.
// Returns: refusedBy (0 = none, else 1-based index), then count and end per key. An open window's
// end is its key's expiry; a key with none (never charged) gets the end given.
const CHARGE_SCRIPT = `
local cost = tonumber(ARGV[1])
local refused = 0
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  if refused == 0 and counts[i] + cost > tonumber(ARGV[i * 2]) then refused = i end
end
local result = { refused }
for i, key in ipairs(KEYS) do
  local endsAt = redis.call('PEXPIRETIME', key)
  if refused == 0 then
    counts[i] = redis.call('INCRBY', key, cost)
    if endsAt < 0 then
      redis.call('PEXPIREAT', key, ARGV[i * 2 + 1])
    end
  end
  if endsAt < 0 then endsAt = tonumber(ARGV[i * 2 + 1]) end
  table.insert(result, counts[i])
  table.insert(result, endsAt)
end
return result
`;

// KEYS: window keys. ARGV: amount, the instant the units were charged, then ttlMs per key. Gives
// units back without going below zero, and only to the window they were charged to: one opened
// since then starts after that instant (its start is its end minus ttlMs), and an expired one is gone.
const REFUND_SCRIPT = `
local amount = tonumber(ARGV[1])
local chargedAt = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  local endsAt = redis.call('PEXPIRETIME', key)
  if endsAt > 0 and endsAt - tonumber(ARGV[i + 2]) <= chargedAt then
    local count = tonumber(redis.call('GET', key) or '0')
    if count > 0 then redis.call('DECRBY', key, math.min(count, amount)) end
  end
end
return 1
`;

type ScriptedRedis = RedisClient & {
  chargeWindows(numKeys: number, ...args: string[]): Promise<number[]>;
  refundWindows(numKeys: number, ...args: string[]): Promise<number>;
};

export class WindowCounter {
  private readonly redis: ScriptedRedis;

  constructor(redis: RedisClient) {
    // defineCommand sends EVALSHA, so the script text crosses the wire once per connection.
    if (!('chargeWindows' in redis)) {
      redis.defineCommand('chargeWindows', { lua: CHARGE_SCRIPT });
      redis.defineCommand('refundWindows', { lua: REFUND_SCRIPT });
      // ioredis' cluster client groups an auto-pipelined script by its first argument, here the key
      // count, not a key: batched with commands of another slot, the pipeline would be refused whole.
      if (redis instanceof Cluster) {
        const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
        redis.options.autoPipeliningIgnoredCommands = [...ignored, 'chargeWindows', 'refundWindows'];
      }
    }
    this.redis = redis as ScriptedRedis;
  }

  /** Charges `cost` to every window or none, at `now` (which opens the windows not open yet). */
  async charge(windows: Window[], cost = 1, now = Date.now()): Promise<ChargeResult> {
    const args = [
      String(cost),
      ...windows.flatMap((w) => [String(w.limit), String(endOfWindowOpenedAt(now, w.ttlMs))]),
    ];
    const raw = await this.redis.chargeWindows(windows.length, ...windows.map((w) => w.key), ...args);
    const states: WindowState[] = windows.map((_, i) => ({
      count: Number(raw[1 + i * 2]),
      endsAt: Number(raw[2 + i * 2]),
    }));
    return { allowed: raw[0] === 0, windows: states, refusedBy: raw[0] - 1 };
  }

  /** A window's count and end, without charging it (an unused window: 0, and the end it would get if opened now). */
  async read(window: Window, now = Date.now()): Promise<WindowState> {
    // One transaction: a window expiring between the two reads would pair an old count with a new end.
    const replies = await this.redis.multi().get(window.key).pexpiretime(window.key).exec();
    const [count, endsAt] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as [string | null, number];
    return {
      count: endsAt > 0 ? Number(count ?? 0) : 0,
      endsAt: endsAt > 0 ? endsAt : endOfWindowOpenedAt(now, window.ttlMs),
    };
  }

  /** Gives back `amount` units charged at `chargedAt`, to the windows that were charged then if they are still open. */
  async refund(windows: Window[], amount: number, chargedAt: number): Promise<void> {
    if (windows.length === 0 || amount <= 0) return;
    await this.redis.refundWindows(
      windows.length,
      ...windows.map((w) => w.key),
      String(amount),
      String(chargedAt),
      ...windows.map((w) => String(w.ttlMs)),
    );
  }
}
