import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../../common/network/address-policy';
import { pinnedLookup, unbracket } from '../../../common/network/pinned-lookup';
import { logoImageProblem, sniffImageType, type ImageType } from './image-header';

// Fetches a prospect logo under the SSRF rules of docs/api.md §12.6: http(s) only, public
// addresses only, 3 s, 2 MiB, image types only. Every hop is resolved once, every resolved address
// must pass the policy, and the socket is pinned to those validated addresses, so a DNS answer that
// changes between the check and the connect (rebinding) is never used.

export type LogoMimeType = ImageType;

export type LogoFetchResult =
  | { ok: true; bytes: Buffer; mimeType: LogoMimeType }
  | { ok: false; code: 'logo_fetch_failed' | 'logo_invalid_image'; message: string };

export interface LogoFetcherOptions {
  /** Overall deadline for resolution, every hop and the body. Default 3000. */
  timeoutMs?: number;
  /** Largest body accepted. Default 2 MiB. */
  maxBytes?: number;
  /** Redirects followed before giving up. Default 3. */
  maxRedirects?: number;
  /** Address policy applied to every resolved address of every hop. Default isPublicAddress. */
  isAllowedAddress?: (ip: string) => boolean;
}

export const LOGO_FETCH_USER_AGENT = 'engagement-thumbnailer/1.0';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

class LogoFetchRefusal extends Error {
  constructor(
    readonly code: 'logo_fetch_failed' | 'logo_invalid_image',
    message: string,
  ) {
    super(message);
  }
}

export class LogoFetcher {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly isAllowedAddress: (ip: string) => boolean;

  constructor(options: LogoFetcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 3;
    this.isAllowedAddress = options.isAllowedAddress ?? isPublicAddress;
  }

  async fetch(url: string): Promise<LogoFetchResult> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    const hop = { host: '' };
    try {
      return await this.fetchWithin(url, controller.signal, hop);
    } catch (error) {
      if (error instanceof LogoFetchRefusal) {
        return { ok: false, code: error.code, message: error.message };
      }
      // Socket and DNS errors name internal addresses; none of their text is passed on.
      const what = controller.signal.aborted ? `timed out after ${this.timeoutMs} ms` : 'could not be fetched';
      return { ok: false, code: 'logo_fetch_failed', message: `logo from ${hop.host || 'the given URL'} ${what}` };
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private async fetchWithin(rawUrl: string, signal: AbortSignal, hop: { host: string }): Promise<LogoFetchResult> {
    let url = parseLogoUrl(rawUrl);
    for (let redirects = 0; ; redirects++) {
      hop.host = url.hostname;
      const addresses = await this.resolveAllowed(url, signal);
      const response = await request(url, addresses, signal);
      const status = response.statusCode ?? 0;

      if (REDIRECT_STATUSES.has(status)) {
        response.destroy();
        const location = response.headers.location;
        if (!location) {
          throw new LogoFetchRefusal('logo_fetch_failed', `logo host ${url.hostname} redirected without a Location`);
        }
        if (redirects >= this.maxRedirects) {
          throw new LogoFetchRefusal('logo_fetch_failed', `logo URL redirected more than ${this.maxRedirects} times`);
        }
        url = parseLogoUrl(location, url);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new LogoFetchRefusal('logo_fetch_failed', `logo host ${url.hostname} answered HTTP ${status}`);
      }

      const contentType = response.headers['content-type'];
      if (contentType !== undefined && !/^\s*image\//i.test(contentType)) {
        response.destroy();
        throw new LogoFetchRefusal('logo_invalid_image', 'logo URL did not return an image');
      }
      const bytes = await this.readCapped(response, url.hostname);
      const mimeType = sniffImageType(bytes);
      const problem = logoImageProblem(bytes);
      if (mimeType === null || problem !== null) {
        throw new LogoFetchRefusal('logo_invalid_image', problem ?? 'logo is not a PNG, JPEG, GIF or WebP image');
      }
      return { ok: true, bytes, mimeType };
    }
  }

  /** Resolves once and refuses the host when any of its addresses is not allowed. */
  private async resolveAllowed(url: URL, signal: AbortSignal): Promise<dns.LookupAddress[]> {
    const host = unbracket(url.hostname);
    const family = isIP(host);
    const addresses =
      family !== 0
        ? [{ address: host, family }]
        : await abortable(dns.promises.lookup(host, { all: true }), signal).catch((error: unknown) => {
            if (signal.aborted) {
              throw error;
            }
            throw new LogoFetchRefusal('logo_fetch_failed', `logo host ${url.hostname} could not be resolved`);
          });
    if (addresses.length === 0 || addresses.some(({ address }) => !this.isAllowedAddress(address))) {
      throw new LogoFetchRefusal('logo_fetch_failed', `logo host ${url.hostname} is not a public address`);
    }
    return addresses;
  }

  private async readCapped(response: http.IncomingMessage, host: string): Promise<Buffer> {
    const tooLarge = (): LogoFetchRefusal =>
      new LogoFetchRefusal('logo_fetch_failed', `logo from ${host} is larger than ${this.maxBytes} bytes`);
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > this.maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, total);
  }
}

function parseLogoUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new LogoFetchRefusal(
      'logo_fetch_failed',
      base ? 'logo URL redirected to an invalid URL' : 'logo URL is not a valid URL',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LogoFetchRefusal('logo_fetch_failed', 'logo URL must use http or https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new LogoFetchRefusal('logo_fetch_failed', 'logo URL must not carry credentials');
  }
  return url;
}

function request(url: URL, addresses: dns.LookupAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request({
      protocol: url.protocol,
      hostname: unbracket(url.hostname),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { 'user-agent': LOGO_FETCH_USER_AGENT, accept: 'image/*', 'accept-encoding': 'identity' },
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
