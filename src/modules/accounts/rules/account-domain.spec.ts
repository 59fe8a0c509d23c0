import { accountDomainOf, parseDomainParam } from './account-domain';

/**
 * docs/api.md §13.5 and DECISIONS "Account path": accountDomain is the registrable domain (ICANN
 * part of the Public Suffix List) of the email's host, none for free-mail providers (the host or its
 * registrable domain on the email-providers list).
 */
describe('accountDomainOf', () => {
  it('is the registrable domain of the email host', () => {
    expect(accountDomainOf('ann@acme.com')).toBe('acme.com');
    expect(accountDomainOf('ann@eu.sales.acme.com')).toBe('acme.com');
    expect(accountDomainOf('ann@acme.co.uk')).toBe('acme.co.uk');
    expect(accountDomainOf('ann@mail.acme.co.uk')).toBe('acme.co.uk');
  });

  it('lower-cases the host and ignores a trailing dot', () => {
    expect(accountDomainOf('Ann@EU.Acme.COM')).toBe('acme.com');
    expect(accountDomainOf('ann@acme.com.')).toBe('acme.com');
    // The free-mail host check sees the host without its trailing dot too.
    expect(accountDomainOf('ann@CatsRule.Garfield.com.')).toBeNull();
  });

  it('has none for free-mail providers', () => {
    expect(accountDomainOf('ann@gmail.com')).toBeNull();
    expect(accountDomainOf('ann@googlemail.com')).toBeNull();
    expect(accountDomainOf('ann@GMAIL.com')).toBeNull();
    expect(accountDomainOf('ann@yahoo.co.uk')).toBeNull();
    expect(accountDomainOf('ann@outlook.com')).toBeNull();
  });

  it('has none for a subdomain of a free-mail registrable domain', () => {
    // eu.gmail.com is not on the list itself; its registrable domain gmail.com is.
    expect(accountDomainOf('ann@eu.gmail.com')).toBeNull();
    expect(accountDomainOf('ann@mail.googlemail.com')).toBeNull();
  });

  it('has none for a listed free-mail host whose registrable domain is not listed', () => {
    // catsrule.garfield.com is on the email-providers list, garfield.com is not.
    expect(accountDomainOf('ann@catsrule.garfield.com')).toBeNull();
    expect(accountDomainOf('ann@other.garfield.com')).toBe('garfield.com');
  });

  it('has none for IP hosts, bare public suffixes and hosts without a dot', () => {
    expect(accountDomainOf('ann@192.168.0.1')).toBeNull();
    expect(accountDomainOf('ann@[127.0.0.1]')).toBeNull();
    expect(accountDomainOf('ann@co.uk')).toBeNull();
    expect(accountDomainOf('ann@localhost')).toBeNull();
  });
});

describe('parseDomainParam', () => {
  it('accepts any case and a trailing dot', () => {
    expect(parseDomainParam('ACME.com.')).toEqual({ domain: 'acme.com' });
    expect(parseDomainParam('Acme.Co.UK')).toEqual({ domain: 'acme.co.uk' });
  });

  it('reduces a subdomain to its registrable domain', () => {
    expect(parseDomainParam('eu.acme.com')).toEqual({ domain: 'acme.com' });
    expect(parseDomainParam('a.b.acme.co.uk')).toEqual({ domain: 'acme.co.uk' });
  });

  it('refuses an email address', () => {
    expect(parseDomainParam('a@acme.com')).toEqual({ invalid: 'an email address is not a domain' });
  });

  it('refuses URLs and anything with a scheme, path, port, query, fragment or whitespace', () => {
    const url = { invalid: 'a URL is not a domain' };
    expect(parseDomainParam('https://acme.com')).toEqual(url);
    expect(parseDomainParam('acme.com/path')).toEqual(url);
    expect(parseDomainParam('acme.com:443')).toEqual(url);
    expect(parseDomainParam('acme.com?x=1')).toEqual(url);
    expect(parseDomainParam('acme.com#top')).toEqual(url);
    expect(parseDomainParam('acme .com')).toEqual(url);
  });

  it('refuses other non-hostnames', () => {
    const bad = { invalid: 'not a valid domain name' };
    expect(parseDomainParam('bad_domain!')).toEqual(bad);
    expect(parseDomainParam('')).toEqual(bad);
    expect(parseDomainParam('-acme.com')).toEqual(bad);
    expect(parseDomainParam('acme..com')).toEqual(bad);
    expect(parseDomainParam('acme.com..')).toEqual(bad);
  });
});
