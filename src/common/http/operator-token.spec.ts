import { carriesToken } from './operator-token';

describe('carriesToken', () => {
  const token = 'operator-token-0123456789';
  it('accepts Bearer and Basic (any user) with the token, nothing else', () => {
    expect(carriesToken(`Bearer ${token}`, token)).toBe(true);
    expect(carriesToken(`Basic ${Buffer.from(`ops:${token}`).toString('base64')}`, token)).toBe(true);
    expect(carriesToken(undefined, token)).toBe(false);
    expect(carriesToken('Bearer', token)).toBe(false);
    expect(carriesToken(`Bearer ${token}x`, token)).toBe(false);
    expect(carriesToken(`Basic ${Buffer.from(`${token}:x`).toString('base64')}`, token)).toBe(false);
    expect(carriesToken(token, token)).toBe(false);
  });
});
