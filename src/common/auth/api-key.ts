import { createHash, randomInt } from 'node:crypto';

/** Keys are `sk_live_` + 32 base62 characters (docs/api.md §5.1); only their SHA-256 is stored. */
export const API_KEY_PREFIX = 'sk_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{32}$/;
/** How much of a key is kept in clear to recognise it in listings. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

export function generateApiKey(): string {
  let secret = '';
  for (let i = 0; i < 32; i++) secret += BASE62[randomInt(BASE62.length)];
  return API_KEY_PREFIX + secret;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/**
 * The key a request presents: `Authorization: Bearer <key>` or `x-api-key: <key>`. A header that
 * is present but not a well-formed key does not fall back to the other one: the client meant it.
 * Returns null when no well-formed key is presented.
 */
export function extractApiKey(headers: Record<string, string | string[] | undefined>): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return API_KEY_PATTERN.test(match[1]) ? match[1] : null;
  }
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') return API_KEY_PATTERN.test(apiKey.trim()) ? apiKey.trim() : null;
  return null;
}
