import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, validateSync } from 'class-validator';
import { IsHttpsUrl, IsHttpUrl, httpUrlIssue } from './http-url';
import { toValidationIssues } from './pydantic-mapping';

class Probe {
  @IsOptional() @IsString() @IsHttpUrl() url?: string;
  @IsOptional() @IsString() @IsHttpUrl({ allowEmpty: true }) referrer?: string;
}

const issuesFor = (body: Record<string, unknown>) =>
  toValidationIssues(validateSync(plainToInstance(Probe, body)), 'body', body);
const SCHEME = {
  type: 'url_scheme',
  msg: "URL scheme should be 'http' or 'https'",
  ctx: { expected_schemes: "'http' or 'https'" },
};
const parsing = (error: string) => ({
  type: 'url_parsing',
  msg: `Input should be a valid URL, ${error}`,
  ctx: { error },
});

describe('IsHttpUrl', () => {
  it.each([
    'https://cdn.example.com/logo.png',
    'http://localhost:8080/x?y=1#z',
    'HTTPS://CDN.Example.com',
    'https://user:pass@example.com/',
    'https://bücher.example/logo.png',
    'http://[2001:db8::1]/',
    ' https://padded.example.com/ ',
  ])('accepts %j', (url) => {
    expect(issuesFor({ url })).toEqual([]);
  });

  it.each([
    ['javascript:alert(1)', SCHEME],
    ['JavaScript:alert(document.cookie)', SCHEME],
    ['java\tscript:alert(1)', SCHEME], // the parser drops the tab: still javascript:
    [' javascript:alert(1)', SCHEME],
    ['data:text/html,<script>alert(1)</script>', SCHEME],
    ['data:image/png;base64,iVBORw0KGgo=', SCHEME],
    ['file:///etc/passwd', SCHEME],
    ['ftp://example.com/logo.png', SCHEME],
    ['vbscript:msgbox', SCHEME],
    ['not a url', parsing('relative URL without a base')],
    ['//cdn.example.com/logo.png', parsing('relative URL without a base')],
    ['/logo.png', parsing('relative URL without a base')],
    ['', parsing('relative URL without a base')],
    ['http://', parsing('empty host')],
    ['https://:443/x', parsing('empty host')],
    ['https://exa mple.com/', parsing('invalid domain character')],
    ['http://example.com:99999/', parsing('invalid port number')],
    ['http://example.com:80a/', parsing('invalid port number')],
    ['http://[::1/', parsing('invalid IPv6 address')],
    ['http://256.256.256.256/', parsing('invalid IPv4 address')],
  ])('refuses %j', (url, expected) => {
    expect(issuesFor({ url })).toEqual([{ ...expected, loc: ['body', 'url'], input: url }]);
  });

  it("accepts '' only where allowed, and reports the same types there", () => {
    expect(issuesFor({ referrer: '' })).toEqual([]);
    expect(issuesFor({ referrer: 'android-app://com.example/' })).toEqual([
      { ...SCHEME, loc: ['body', 'referrer'], input: 'android-app://com.example/' },
    ]);
  });

  it('leaves non-strings to the type check', () => {
    expect(issuesFor({ url: 42 })).toEqual([
      { type: 'string_type', loc: ['body', 'url'], msg: 'Input should be a valid string', input: 42 },
    ]);
  });

  it('httpUrlIssue keeps the loc it is given (list items included)', () => {
    expect(httpUrlIssue(['body', 'links', 3, 'prospectLogoUrl'], 'file:///x')).toEqual({
      ...SCHEME,
      loc: ['body', 'links', 3, 'prospectLogoUrl'],
      input: 'file:///x',
    });
  });
});

class HttpsProbe {
  @IsOptional() @IsString() @IsHttpsUrl() url?: string;
}

describe('IsHttpsUrl', () => {
  const httpsIssues = (url: string) =>
    toValidationIssues(validateSync(plainToInstance(HttpsProbe, { url })), 'body', { url });

  it('accepts an absolute https URL', () => {
    expect(httpsIssues('https://example.com/offer-ended?x=1')).toEqual([]);
  });

  it('refuses http as url_scheme naming https only', () => {
    expect(httpsIssues('http://example.com/')).toEqual([
      {
        type: 'url_scheme',
        loc: ['body', 'url'],
        msg: "URL scheme should be 'https'",
        input: 'http://example.com/',
        ctx: { expected_schemes: "'https'" },
      },
    ]);
  });

  it('refuses text that is no URL as url_parsing, and credentials as a value_error', () => {
    expect(httpsIssues('/ended')).toEqual([
      { ...parsing('relative URL without a base'), loc: ['body', 'url'], input: '/ended' },
    ]);
    expect(httpsIssues('https://u:p@example.com/')).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'url'],
        msg: 'Value error, URL must not carry credentials',
        input: 'https://u:p@example.com/',
        ctx: { error: 'URL must not carry credentials' },
      },
    ]);
  });
});
