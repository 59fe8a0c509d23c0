import { headerMismatch } from '../bench/run/headers';

/** The like-for-like check of the benchmark's single-row reads (bench/run/headers.js). */
describe('bench header comparison', () => {
  const compared = (status: [number, number], onlyService: string[], onlyRaw: string[]) => ({
    path: '/api/v1/accounts/example.com',
    status,
    only_service: onlyService,
    only_raw: onlyRaw,
  });

  it('passes the same names with the same status', () => {
    expect(headerMismatch(compared([200, 200], [], []))).toBeNull();
  });

  it('names what each side alone sent, and a different status', () => {
    expect(headerMismatch(compared([200, 401], ['x-request-id'], ['x-debug']))).toBe(
      'header names differ on /api/v1/accounts/example.com: status 200 (service) against 401 (raw); ' +
        'only the service sent x-request-id; only the raw baseline sent x-debug',
    );
  });
});
