import type Redis from 'ioredis';

/**
 * Fixed-window counters in Redis, checked and charged in one Lua script so that every API instance
 * sees one count. A charge that would pass any window's limit is refused whole and charges nothing
 * (a refused request does not eat the budget).
 */
export interface Window {
  key: string;
  limit: number;
  /** Lifetime of the window from its first charge. */
  ttlMs: number;
}

export interface WindowState {
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

export interface ChargeResult {
  allowed: boolean;
  /** The state of every window after the call, in the order given. */
  windows: WindowState[];
  /** Index of the first window that refused the charge, or -1. */
  refusedBy: number;
}

// KEYS: window keys. ARGV: cost, then limit and ttlMs per key.
// Returns: refusedBy (0 = none, else 1-based index), then count and pttl per key.
const CHARGE_SCRIPT = `
local cost = tonumber(ARGV[1])
local refused = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i * 2])
  local count = tonumber(redis.call('GET', key) or '0')
  if refused == 0 and count + cost > limit then refused = i end
end
local result = { refused }
for i, key in ipairs(KEYS) do
  local ttl = tonumber(ARGV[i * 2 + 1])
  local count
  if refused == 0 then
    count = redis.call('INCRBY', key, cost)
  else
    count = tonumber(redis.call('GET', key) or '0')
  end
  local pttl = redis.call('PTTL', key)
  if refused == 0 and pttl < 0 then
    redis.call('PEXPIRE', key, ttl)
    pttl = ttl
  end
  if pttl < 0 then pttl = ttl end
  table.insert(result, count)
  table.insert(result, pttl)
end
return result
`;

// KEYS: window keys. ARGV: amount. Gives units back without going below zero.
const REFUND_SCRIPT = `
local amount = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then redis.call('DECRBY', key, math.min(count, amount)) end
end
return 1
`;

type ScriptedRedis = Redis & {
  chargeWindows(numKeys: number, ...args: string[]): Promise<number[]>;
  refundWindows(numKeys: number, ...args: string[]): Promise<number>;
};

export class WindowCounter {
  private readonly redis: ScriptedRedis;

  constructor(redis: Redis) {
    // defineCommand sends EVALSHA, so the script text crosses the wire once per connection.
    if (!('chargeWindows' in redis)) {
      redis.defineCommand('chargeWindows', { lua: CHARGE_SCRIPT });
      redis.defineCommand('refundWindows', { lua: REFUND_SCRIPT });
    }
    this.redis = redis as ScriptedRedis;
  }

  async charge(windows: Window[], cost = 1): Promise<ChargeResult> {
    const args = [String(cost), ...windows.flatMap((w) => [String(w.limit), String(w.ttlMs)])];
    const raw = await this.redis.chargeWindows(windows.length, ...windows.map((w) => w.key), ...args);
    const states: WindowState[] = windows.map((_, i) => ({ count: Number(raw[1 + i * 2]), resetInMs: Number(raw[2 + i * 2]) }));
    return { allowed: raw[0] === 0, windows: states, refusedBy: raw[0] - 1 };
  }

  /** A window's count and time to reset, without charging it (an unused window: 0 and its full length). */
  async read(window: Window): Promise<WindowState> {
    const [count, pttl] = await Promise.all([this.redis.get(window.key), this.redis.pttl(window.key)]);
    return { count: Number(count ?? 0), resetInMs: pttl > 0 ? pttl : window.ttlMs };
  }

  async refund(keys: string[], amount = 1): Promise<void> {
    if (keys.length === 0 || amount <= 0) return;
    await this.redis.refundWindows(keys.length, ...keys, String(amount));
  }
}
