import { parseApiKeyChange } from './api-key-changes';

describe('parseApiKeyChange', () => {
  it('reads the two announcements', () => {
    expect(parseApiKeyChange('{"revokedKeyId":"0190a000-0000-7000-8000-000000000000"}')).toEqual({
      revokedKeyId: '0190a000-0000-7000-8000-000000000000',
    });
    expect(parseApiKeyChange(`{"createdKeyHash":"${'a'.repeat(64)}"}`)).toEqual({ createdKeyHash: 'a'.repeat(64) });
  });

  it.each(['', 'not json', 'null', '42', '"revokedKeyId"', '{"revokedKeyId":7}', '{"other":"x"}'])(
    'ignores anything else on the shared channel: %j',
    (message) => {
      expect(parseApiKeyChange(message)).toBeNull();
    },
  );
});
