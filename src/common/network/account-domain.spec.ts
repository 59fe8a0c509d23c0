import { prospectAccountDomain } from './account-domain';

/** docs/api.md §13.5: a Custom Link's account domain (issue 33 point 4). */
describe('prospectAccountDomain', () => {
  it("is the email's account domain when it has one, whatever the company domain says", () => {
    expect(prospectAccountDomain('ann@eu.acme.com', 'other.io')).toBe('acme.com');
    expect(prospectAccountDomain('Ann@Acme.CO.UK.', null)).toBe('acme.co.uk');
  });

  it('falls back to the registrable domain of the company domain for free mail or no email', () => {
    expect(prospectAccountDomain('ann@gmail.com', 'acme.com')).toBe('acme.com');
    expect(prospectAccountDomain(null, 'Sales.ACME.co.uk.')).toBe('acme.co.uk');
    expect(prospectAccountDomain('', ' acme.com ')).toBe('acme.com');
    // A URL gives its host's registrable domain.
    expect(prospectAccountDomain('not an email', 'https://www.acme.com/about')).toBe('acme.com');
  });

  it('has none when neither gives one', () => {
    expect(prospectAccountDomain(null, null)).toBeNull();
    expect(prospectAccountDomain('ann@gmail.com', null)).toBeNull();
    expect(prospectAccountDomain('ann@gmail.com', 'Acme Corp')).toBeNull();
    expect(prospectAccountDomain(null, 'co.uk')).toBeNull();
    expect(prospectAccountDomain(null, '192.168.0.1')).toBeNull();
    expect(prospectAccountDomain('ann@localhost', 'localhost')).toBeNull();
  });

  it('keeps a free-mail company domain (only the email is checked against the free-mail list)', () => {
    expect(prospectAccountDomain(null, 'gmail.com')).toBe('gmail.com');
  });
});
