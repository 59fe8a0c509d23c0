import { randomBytes } from 'node:crypto';

/** An unguessable slug: 128 random bits, URL-safe (22 characters). */
export function newSlug(): string {
  return randomBytes(16).toString('base64url');
}

/** docs/api.md §12.1: displayName defaults to "First Last, Company", or the email. */
export function defaultDisplayName(link: {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  email?: string | null;
}): string {
  const name = [link.firstName, link.lastName].filter((part) => part && part.trim()).join(' ');
  const label = [name, link.company?.trim()].filter(Boolean).join(', ');
  return (label || link.email?.trim() || 'Custom Link').slice(0, 255);
}
