import { ValidateBy } from 'class-validator';
import { valueError, type ValidationIssue } from '../errors/validation-issue';

/**
 * Absolute http(s) URLs, as pydantic's HttpUrl checks them (docs/api.md §7.3): a URL that parses
 * with another scheme (`javascript:`, `data:`, `file:`, `ftp:`) is `url_scheme`; text that is no URL
 * at all is `url_parsing` with the reason the WHATWG parser (Node's URL, like pydantic's rust-url)
 * refused it. The value is stored as sent (pydantic would re-serialise it; that could outgrow the
 * column's 2083 characters): the logo fetcher and clients parse it with the same WHATWG rules.
 */
const SCHEMES = ['http:', 'https:'];
const EXPECTED_SCHEMES = "'http' or 'https'";

/** The parsed URL, or why it is not an absolute URL of one of `schemes`. */
function parse(
  value: string,
  schemes = SCHEMES,
): { url: URL } | { type: 'url_scheme' } | { type: 'url_parsing'; error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { type: 'url_parsing', error: parsingError(value) };
  }
  return schemes.includes(url.protocol) ? { url } : { type: 'url_scheme' };
}

/** Node's URL says only "Invalid URL"; pydantic names the reason (rust-url's wording). */
function parsingError(value: string): string {
  // The parser ignores surrounding C0 controls and spaces, and tabs and newlines anywhere.
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(text);
  if (!scheme) return 'relative URL without a base';
  const rest = text.slice(scheme[0].length).replace(/^[/\\]*/, '');
  const authority = rest.split(/[/\\?#]/)[0];
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostAndPort === '') return 'empty host';
  if (hostAndPort.startsWith('[')) return 'invalid IPv6 address';
  const portAt = hostAndPort.lastIndexOf(':');
  const host = portAt === -1 ? hostAndPort : hostAndPort.slice(0, portAt);
  if (host === '') return 'empty host';
  if (portAt !== -1 && !/^\d{0,5}$/.test(hostAndPort.slice(portAt + 1))) return 'invalid port number';
  if (portAt !== -1 && Number(hostAndPort.slice(portAt + 1)) > 65535) return 'invalid port number';
  if (/^[0-9.]+$|^0x/i.test(host)) return 'invalid IPv4 address';
  if (/[^\p{ASCII}]/u.test(host)) return 'invalid international domain name';
  return 'invalid domain character';
}

/** The pydantic issue for a string that failed IsHttpUrl. */
export function httpUrlIssue(loc: (string | number)[], input: unknown): ValidationIssue {
  const result = parse(String(input));
  if ('type' in result && result.type === 'url_scheme') {
    return {
      type: 'url_scheme',
      loc,
      msg: `URL scheme should be ${EXPECTED_SCHEMES}`,
      input,
      ctx: { expected_schemes: EXPECTED_SCHEMES },
    };
  }
  const error = 'error' in result ? result.error : 'relative URL without a base';
  return { type: 'url_parsing', loc, msg: `Input should be a valid URL, ${error}`, input, ctx: { error } };
}

/**
 * An absolute http or https URL (strings only: the type check is another decorator's). `allowEmpty`
 * lets '' through for fields where an empty string means "none" (a browser's empty referrer).
 */
export function IsHttpUrl(options: { allowEmpty?: boolean } = {}): PropertyDecorator {
  const accepts = (value: unknown) =>
    typeof value !== 'string' || (options.allowEmpty === true && value === '') || 'url' in parse(value);
  return ValidateBy({ name: 'isHttpUrl', validator: { validate: accepts } });
}

/**
 * Where a link may send its visitors (expiredRedirectUrl), under the rules a prospect logo URL is
 * fetched by (docs/api.md §12.6) that apply to a URL the service never fetches: absolute, `https`
 * only (a visitor leaves an https link for an https page), no credentials in it.
 */
export function IsHttpsUrl(): PropertyDecorator {
  const accepts = (value: unknown) => {
    if (typeof value !== 'string') return true;
    const result = parse(value, ['https:']);
    return 'url' in result && result.url.username === '' && result.url.password === '';
  };
  return ValidateBy({ name: 'isHttpsUrl', validator: { validate: accepts } });
}

/** The pydantic issue for a string that failed IsHttpsUrl. */
export function httpsUrlIssue(loc: (string | number)[], input: unknown): ValidationIssue {
  const result = parse(String(input), ['https:']);
  if (!('url' in result)) {
    if (result.type === 'url_parsing') return httpUrlIssue(loc, input);
    return {
      type: 'url_scheme',
      loc,
      msg: "URL scheme should be 'https'",
      input,
      ctx: { expected_schemes: "'https'" },
    };
  }
  return valueError(loc, input, 'URL must not carry credentials');
}
