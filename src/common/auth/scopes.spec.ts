import { grantsAny } from './scopes';

describe('grantsAny', () => {
  it('grants a held scope and refuses a missing one', () => {
    expect(grantsAny(['sessions:read'], ['sessions:read'])).toBe(true);
    expect(grantsAny(['sessions:read'], ['transcripts:read'])).toBe(false);
    expect(grantsAny([], ['sessions:read'])).toBe(false);
  });

  it('lets custom_links:write satisfy custom_links:read, not the reverse', () => {
    expect(grantsAny(['custom_links:write'], ['custom_links:read'])).toBe(true);
    expect(grantsAny(['custom_links:read'], ['custom_links:write'])).toBe(false);
  });

  it('accepts any one of several accepted scopes', () => {
    expect(grantsAny(['playbook:read'], ['agent:publish', 'playbook:read'])).toBe(true);
  });

  it('denies a route that accepts nothing', () => {
    expect(grantsAny(['sessions:read', 'custom_links:write'], [])).toBe(false);
  });
});
