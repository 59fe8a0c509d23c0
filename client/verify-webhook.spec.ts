import { newSecret, signatureHeader } from '../src/modules/webhooks/rules/signing';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './index';

/** verifyWebhook against deliveries signed as the service signs them (its own secrets and signing rule). */
describe('verifyWebhook', () => {
  const body = JSON.stringify({
    type: 'custom_link_job.finished',
    timestamp: '2026-11-28T12:00:00.000Z',
    data: { id: 'j-1' },
  });
  const id = '0193c1a2-0000-7000-8000-000000000001';
  const now = () => Math.floor(Date.now() / 1000);
  const delivery = (secrets: string[], timestamp = now(), signed = body) => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, signed),
  });

  it('returns the typed event for a secret exactly as the endpoint API returns it (whsec_ and base64)', () => {
    const secret = newSecret();
    const event: WebhookEvent = verifyWebhook(body, delivery([secret]), secret);
    expect(event).toEqual(JSON.parse(body));
    if (event.type !== 'custom_link_job.finished') throw new Error(`unexpected ${event.type}`);
    expect(event.data.id).toBe('j-1');
  });

  it('takes a Buffer, headers in any case, Node header arrays and a fetch Headers', () => {
    const secret = newSecret();
    const headers = delivery([secret]);
    expect(verifyWebhook(Buffer.from(body), headers, secret).type).toBe('custom_link_job.finished');
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(body, upper, secret).type).toBe('custom_link_job.finished');
    expect(
      verifyWebhook(
        body,
        { ...headers, 'webhook-signature': ['v1,AAAA', headers['webhook-signature']], 'content-type': undefined },
        secret,
      ).type,
    ).toBe('custom_link_job.finished');
    expect(verifyWebhook(body, new Headers(headers), secret).type).toBe('custom_link_job.finished');
  });

  it('accepts either secret during a rotation overlap', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = delivery([current, previous]);
    expect(verifyWebhook(body, headers, current)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, headers, previous)).toEqual(JSON.parse(body));
  });

  it('throws WebhookVerificationError on a tampered body, another secret, an old or future timestamp, a missing or doubled header', () => {
    const secret = newSecret();
    const headers = delivery([secret]);
    const refused = (payload: string, h: Record<string, string | string[] | undefined>, key = secret) =>
      expect(() => verifyWebhook(payload, h, key)).toThrow(WebhookVerificationError);
    refused(body.replace('j-1', 'j-2'), headers);
    refused(body, headers, newSecret());
    refused(body, delivery([secret], now() - 6 * 60));
    refused(body, delivery([secret], now() + 6 * 60));
    refused(body, { ...headers, 'webhook-signature': undefined });
    refused(body, { ...headers, 'webhook-id': [id, id] });
  });

  it('throws when a correctly signed body is not an event', () => {
    const secret = newSecret();
    for (const signed of ['[]', '{"type":"x"}', '"text"']) {
      expect(() => verifyWebhook(signed, delivery([secret], now(), signed), secret)).toThrow(WebhookVerificationError);
    }
  });
});
