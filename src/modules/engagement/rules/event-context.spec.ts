import { countryCodeOf, deviceOf, referrerDomainOf, utmOf, utmOfQuery } from './event-context';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** docs/api.md §6.3: an event's context. */
describe('event context', () => {
  it('reads the device type, browser and OS of a User-Agent', () => {
    expect(deviceOf(CHROME_MAC)).toEqual({ deviceType: 'desktop', browser: 'Chrome', os: 'macOS' });
    expect(deviceOf(SAFARI_IPHONE)).toEqual({ deviceType: 'mobile', browser: 'Safari', os: 'iOS' });
    expect(deviceOf(SAFARI_IPAD)).toEqual({ deviceType: 'tablet', browser: 'Safari', os: 'iOS' });
    expect(deviceOf(FIREFOX_WINDOWS)).toEqual({ deviceType: 'desktop', browser: 'Firefox', os: 'Windows' });
    expect(deviceOf(CHROME_ANDROID)).toEqual({ deviceType: 'mobile', browser: 'Chrome', os: 'Android' });
  });

  it('has no device without a User-Agent, and "other" for one that names no known platform', () => {
    expect(deviceOf(undefined)).toEqual({ deviceType: null, browser: null, os: null });
    expect(deviceOf('  ')).toEqual({ deviceType: null, browser: null, os: null });
    expect(deviceOf('curl/8.5.0').deviceType).toBe('other');
  });

  it('answers a repeated User-Agent the same from its cache', () => {
    const first = deviceOf(CHROME_ANDROID);
    expect(deviceOf(CHROME_ANDROID)).toBe(first);
  });

  it('keeps the registrable domain of a referrer URL or host', () => {
    expect(referrerDomainOf('https://www.linkedin.com/feed/?trk=abc')).toBe('linkedin.com');
    expect(referrerDomainOf('https://mail.google.co.uk/mail/u/0')).toBe('google.co.uk');
    expect(referrerDomainOf('news.ycombinator.com')).toBe('ycombinator.com');
    expect(referrerDomainOf('HTTPS://WWW.Example.COM.')).toBe('example.com');
  });

  it('has no referrer domain for an address, a local name, a suffix or garbage', () => {
    expect(referrerDomainOf('http://10.0.0.1/x')).toBeNull();
    expect(referrerDomainOf('http://localhost:3000/')).toBeNull();
    expect(referrerDomainOf('co.uk')).toBeNull();
    expect(referrerDomainOf('http://[::1]/')).toBeNull();
    expect(referrerDomainOf('not a url at all')).toBeNull();
    expect(referrerDomainOf('')).toBeNull();
    expect(referrerDomainOf(null)).toBeNull();
  });

  it('keeps two-letter country codes in upper case, not Cloudflare’s unknown or anything else', () => {
    expect(countryCodeOf('de')).toBe('DE');
    expect(countryCodeOf('US')).toBe('US');
    expect(countryCodeOf('XX')).toBeNull();
    expect(countryCodeOf('USA')).toBeNull();
    expect(countryCodeOf('1A')).toBeNull();
    expect(countryCodeOf(undefined)).toBeNull();
  });

  it('keeps UTM values cut at 255 characters, blank ones none, and null when none is set', () => {
    const long = 'x'.repeat(300);
    expect(utmOfQuery({ utm_source: 'newsletter', utm_campaign: long, utm_medium: ' ' })).toEqual({
      source: 'newsletter',
      medium: null,
      campaign: 'x'.repeat(255),
      term: null,
      content: null,
    });
    expect(utmOfQuery({ cl: 'abc' })).toBeNull();
    expect(utmOfQuery({ utm_source: ['first', 'second'] })?.source).toBe('first');
    expect(utmOfQuery({ utm_source: { nested: 'object' } })).toBeNull();
    expect(utmOf((field) => (field === 'term' ? 'pricing' : undefined))?.term).toBe('pricing');
  });
});
