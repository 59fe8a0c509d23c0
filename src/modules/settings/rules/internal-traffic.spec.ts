import { compileInternalTraffic, internalReasonOf, parseCidr } from './internal-traffic';

/** docs/api.md §6.8: what makes an open or event internal, and why. */
describe('internal traffic', () => {
  it('reads IPv4 and IPv6 ranges in CIDR notation, a bare address as a range of one', () => {
    expect(parseCidr('203.0.113.0/24')).toEqual({ network: '203.0.113.0', prefix: 24, family: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).toEqual({ network: '2001:db8::', prefix: 32, family: 'ipv6' });
    expect(parseCidr('198.51.100.7')).toEqual({ network: '198.51.100.7', prefix: 32, family: 'ipv4' });
    for (const bad of [
      '203.0.113.0/33',
      '2001:db8::/129',
      '10.0.0.0/8/1',
      'office',
      '10.0.0/8',
      '10.0.0.0/-1',
      '10.0.0.0/ 8',
      '',
    ])
      expect({ bad, parsed: parseCidr(bad) }).toEqual({ bad, parsed: null });
  });

  const rules = compileInternalTraffic({
    ipRanges: ['203.0.113.0/24', '2001:db8::/32'],
    visitorIds: ['v-rep-1'],
    userAgentContains: ['AcmeQA'],
  });

  it('matches an address in a range, IPv4-mapped addresses included', () => {
    expect(internalReasonOf({ address: '203.0.113.77' }, rules)).toBe('ip_range');
    expect(internalReasonOf({ address: '::ffff:203.0.113.77' }, rules)).toBe('ip_range');
    expect(internalReasonOf({ address: '2001:db8:1::5' }, rules)).toBe('ip_range');
    expect(internalReasonOf({ address: '203.0.114.1' }, rules)).toBeNull();
    expect(internalReasonOf({ address: 'not-an-address' }, rules)).toBeNull();
  });

  it('matches a visitor id exactly and a User-Agent text in any case', () => {
    expect(internalReasonOf({ visitorId: 'v-rep-1' }, rules)).toBe('visitor_id');
    expect(internalReasonOf({ visitorId: 'v-rep-10' }, rules)).toBeNull();
    expect(internalReasonOf({ userAgent: 'Mozilla/5.0 acmeqa-runner' }, rules)).toBe('user_agent');
    expect(internalReasonOf({ userAgent: 'Mozilla/5.0 Chrome' }, rules)).toBeNull();
  });

  it('gives the first reason that applies: range, visitor id, User-Agent, preview, then declared', () => {
    const all = { address: '203.0.113.1', visitorId: 'v-rep-1', userAgent: 'AcmeQA', preview: true, declared: true };
    expect(internalReasonOf(all, rules)).toBe('ip_range');
    expect(internalReasonOf({ ...all, address: null }, rules)).toBe('visitor_id');
    expect(internalReasonOf({ ...all, address: null, visitorId: null }, rules)).toBe('user_agent');
    expect(internalReasonOf({ preview: true, declared: true }, rules)).toBe('preview');
    expect(internalReasonOf({ declared: true }, rules)).toBe('declared');
    expect(internalReasonOf({}, rules)).toBeNull();
  });

  it('finds nothing internal without a setting', () => {
    const none = compileInternalTraffic({ ipRanges: [], visitorIds: [], userAgentContains: [] });
    expect(internalReasonOf({ address: '203.0.113.1', visitorId: 'v', userAgent: 'x' }, none)).toBeNull();
  });
});
