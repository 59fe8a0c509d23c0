import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newSecret, signatureHeader } from './signing';

describe('webhook signing', () => {
  const body = JSON.stringify({ type: 'custom_link.opened', timestamp: '2026-11-25T12:00:00.000Z', data: { id: 'x' } });
  const id = '0193c1a2-0000-7000-8000-000000000001';

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });

  it('signs as the Standard Webhooks reference verifies, with either of two secrets', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signatureHeader([current, previous], id, timestamp, body);
    expect(signature.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace('x', 'y'), headers)).toThrow();
  });

  it('matches a known HMAC', () => {
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(signatureHeader([secret], 'msg', 1700000000, '{}')).toBe(
      'v1,' + createHmac('sha256', Buffer.alloc(32, 1)).update('msg.1700000000.{}').digest('base64'),
    );
  });
});
