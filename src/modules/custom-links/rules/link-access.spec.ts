import { accessStateOf, type LinkAccess } from './link-access';

const now = new Date('2026-06-01T12:00:00.000Z');
const link = (fields: Partial<LinkAccess>): LinkAccess => ({
  active: true,
  expires_at: null,
  max_human_opens: null,
  human_opens: 0,
  ...fields,
});
const past = new Date(now.getTime() - 1);
const future = new Date(now.getTime() + 1);

describe('accessStateOf', () => {
  it('is open without expiry or cap, and before either applies', () => {
    expect(accessStateOf(link({}), now)).toBe('open');
    expect(accessStateOf(link({ expires_at: future, max_human_opens: 2, human_opens: 1 }), now)).toBe('open');
  });

  it('expires at expiresAt itself', () => {
    expect(accessStateOf(link({ expires_at: now }), now)).toBe('expired');
  });

  it('is capped once the human opens reach the cap', () => {
    expect(accessStateOf(link({ max_human_opens: 2, human_opens: 2 }), now)).toBe('capped');
  });

  it('ranks inactive over expired over capped', () => {
    const all = { expires_at: past, max_human_opens: 1, human_opens: 1 };
    expect(accessStateOf(link({ ...all, active: false }), now)).toBe('inactive');
    expect(accessStateOf(link(all), now)).toBe('expired');
    expect(accessStateOf(link({ ...all, expires_at: null }), now)).toBe('capped');
  });
});
