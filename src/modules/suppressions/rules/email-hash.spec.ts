import { createHmac } from 'node:crypto';
import { normalizeEmail, SALT_BYTES, suppressionHash } from './email-hash';

/** docs/api.md §18.3: a salted hash of the normalized email, never the email. */
describe('suppression hash', () => {
  const salt = Buffer.alloc(SALT_BYTES, 7);
  const otherSalt = Buffer.alloc(SALT_BYTES, 8);

  it('is HMAC-SHA256 of the normalized email keyed by the salt, in hex', () => {
    const expected = createHmac('sha256', salt).update('ada@example.com').digest('hex');
    expect(suppressionHash(salt, 'ada@example.com')).toBe(expected);
    expect(suppressionHash(salt, 'ada@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('normalizes by trimming and lower-casing', () => {
    expect(normalizeEmail('  Ada@Example.COM\t')).toBe('ada@example.com');
    expect(normalizeEmail(' \n ')).toBe('');
    const hash = suppressionHash(salt, 'ada@example.com');
    expect(suppressionHash(salt, 'ADA@example.com')).toBe(hash);
    expect(suppressionHash(salt, ' ada@Example.com \n')).toBe(hash);
  });

  it('tells different emails apart', () => {
    expect(suppressionHash(salt, 'ada@example.com')).not.toBe(suppressionHash(salt, 'ada@example.org'));
    expect(suppressionHash(salt, 'ada@example.com')).not.toBe(suppressionHash(salt, 'ada.l@example.com'));
  });

  it('depends on the salt', () => {
    expect(suppressionHash(salt, 'ada@example.com')).not.toBe(suppressionHash(otherSalt, 'ada@example.com'));
  });
});
