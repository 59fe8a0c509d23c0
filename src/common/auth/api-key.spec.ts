import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, displayPrefix, extractApiKey, generateApiKey, hashApiKey } from './api-key';

const KEY = 'sk_live_' + 'aB3'.repeat(10) + 'xy';

describe('API keys', () => {
  it('generates sk_live_ + 32 base62 characters, different each time', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(generateApiKey()).not.toBe(a);
  });

  it('hashes with SHA-256 hex and keeps only a short prefix in clear', () => {
    expect(hashApiKey(KEY)).toBe(createHash('sha256').update(KEY).digest('hex'));
    expect(displayPrefix(KEY)).toBe(`${API_KEY_PREFIX}aB3a`);
  });

  describe('extractApiKey', () => {
    it('reads Authorization: Bearer in any case, and x-api-key', () => {
      expect(extractApiKey({ authorization: `Bearer ${KEY}` })).toBe(KEY);
      expect(extractApiKey({ authorization: `bearer  ${KEY}` })).toBe(KEY);
      expect(extractApiKey({ 'x-api-key': KEY })).toBe(KEY);
    });

    it('falls back to x-api-key when Authorization is another scheme', () => {
      expect(extractApiKey({ authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': KEY })).toBe(KEY);
    });

    it('rejects absent and malformed keys', () => {
      expect(extractApiKey({})).toBeNull();
      expect(extractApiKey({ authorization: 'Bearer sk_live_short' })).toBeNull();
      expect(extractApiKey({ authorization: `Bearer ${KEY}`.replace('sk_live_', 'sk_test_') })).toBeNull();
      expect(extractApiKey({ 'x-api-key': `${KEY}!` })).toBeNull();
      expect(extractApiKey({ authorization: `Bearer ${KEY} extra` })).toBeNull();
    });

    it('does not fall back when the Bearer key is malformed', () => {
      expect(extractApiKey({ authorization: 'Bearer nope', 'x-api-key': KEY })).toBeNull();
    });
  });
});
