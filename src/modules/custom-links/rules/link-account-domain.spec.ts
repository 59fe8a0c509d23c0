import { withAccountDomain } from './link-account-domain';

/** Every write of a link's email or prospectDomain stores its account domain (docs/api.md §13.5). */
describe('withAccountDomain', () => {
  it('derives it at creation from the fields given, null when they give none', () => {
    expect(withAccountDomain({ email: 'ann@acme.com', prospect_domain: 'other.io' })).toEqual({
      email: 'ann@acme.com',
      prospect_domain: 'other.io',
      account_domain: 'acme.com',
    });
    expect(withAccountDomain({ email: 'ann@gmail.com', prospect_domain: 'www.beta.io' })).toMatchObject({
      account_domain: 'beta.io',
    });
    expect(withAccountDomain({ display_name: 'x' })).toEqual({ display_name: 'x', account_domain: null });
  });

  it('derives it on an update from the changed field and the current other one', () => {
    const current = { email: 'ann@gmail.com', prospect_domain: 'acme.com' };
    expect(withAccountDomain({ email: 'ann@beta.io' }, current)).toEqual({
      email: 'ann@beta.io',
      account_domain: 'beta.io',
    });
    expect(withAccountDomain({ prospect_domain: null }, current)).toEqual({
      prospect_domain: null,
      account_domain: null,
    });
    expect(withAccountDomain({ email: null }, { email: 'ann@beta.io', prospect_domain: 'acme.com' })).toEqual({
      email: null,
      account_domain: 'acme.com',
    });
  });

  it('leaves an update that changes neither field as it is', () => {
    const columns = { company: 'Acme' };
    expect(withAccountDomain(columns, { email: 'ann@acme.com', prospect_domain: null })).toBe(columns);
  });
});
