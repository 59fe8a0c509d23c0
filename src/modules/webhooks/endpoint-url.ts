import dns from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../common/network/address-policy';
import { unbracket } from '../../common/network/pinned-lookup';

const RESOLVE_TIMEOUT_MS = 3000;

/**
 * Why an endpoint URL is refused, or null (the logo SSRF rules): https only, no credentials, and a
 * host whose every address is public. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS, development and
 * tests) admits http and any address. Deliveries check the addresses again when they connect.
 */
export async function endpointUrlProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'the URL must use https';
  if (url.username !== '' || url.password !== '') return 'the URL must not carry credentials';
  if (allowPrivate) return null;
  const addresses = await resolve(unbracket(url.hostname));
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) return 'the URL host must be a public address';
  return null;
}

/** The host's addresses (none when it does not resolve in time). */
export async function resolve(host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<dns.LookupAddress[]>((done) => (timer = setTimeout(() => done([]), RESOLVE_TIMEOUT_MS)));
  try {
    const found = await Promise.race([dns.promises.lookup(host, { all: true }).catch(() => []), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}
