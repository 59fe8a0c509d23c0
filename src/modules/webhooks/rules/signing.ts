import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: whsec_ and the base64 of 32 random bytes. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The webhook-signature header (Standard Webhooks): `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed with the base64-decoded secret, one per active secret, space-separated.
 */
export function signatureHeader(secrets: string[], messageId: string, timestampSeconds: number, body: string): string {
  const signed = `${messageId}.${timestampSeconds}.${body}`;
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'))
          .update(signed)
          .digest('base64')}`,
    )
    .join(' ');
}
