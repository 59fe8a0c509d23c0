import dns from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../common/network/address-policy';
import { unbracket } from '../../common/network/pinned-lookup';

const RESOLVE_TIMEOUT_MS = 3000;

/** What an endpoint URL may be: the webhooks part of the configuration. */
export interface EndpointUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS (development and tests): http, any address and any port. */
  allowPrivateUrls: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports the worker's egress NetworkPolicy opens. */
  allowedPorts: number[];
}

const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'http:': 80 };

/**
 * Why an endpoint URL is refused, or null (the logo SSRF rules): https only, no credentials, a port
 * the workers may reach, and a host whose every address is public. The port rule exists because the
 * worker's egress NetworkPolicy opens only WEBHOOK_ALLOWED_PORTS: a URL on another port would be
 * accepted and then every delivery would time out silently. `allowPrivateUrls` admits http, any
 * address and any port (a laptop or a test has no egress policy; test receivers listen on random
 * ports). Deliveries check the addresses again when they connect.
 */
export async function endpointUrlProblem(raw: string, policy: EndpointUrlPolicy): Promise<string | null> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(policy.allowPrivateUrls && url.protocol === 'http:'))
    return 'the URL must use https';
  if (url.username !== '' || url.password !== '') return 'the URL must not carry credentials';
  if (policy.allowPrivateUrls) return null;
  const portProblem = endpointPortProblem(url, policy.allowedPorts);
  if (portProblem) return portProblem;
  const addresses = await resolve(unbracket(url.hostname));
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) return 'the URL host must be a public address';
  return null;
}

/** The port rule alone: the URL's port (its scheme's default when it names none) must be an allowed one. */
export function endpointPortProblem(url: URL, allowedPorts: number[]): string | null {
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  return allowedPorts.includes(port) ? null : `the URL's port must be one of ${allowedPorts.join(', ')}`;
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
