import { limitNameOf } from './app-metrics';

describe('limitNameOf', () => {
  it.each([
    ['limit:link-mutations:0190a000-0000-7000-8000-00000000beef', 'link-mutations'],
    ['limit:link-creation:hour:0190a000-0000-7000-8000-00000000beef', 'link-creation:hour'],
    ['limit:transcripts:0190a000-0000-7000-8000-00000000beef:2026-11-20', 'transcripts'],
    ['limit:link-opens:client:203.0.113.7', 'link-opens:client'],
    ['limit:link-opens:link:my-slug', 'link-opens:link'],
    ['rate:default:key-id', 'other'],
    ['limit:0190A000:x', 'other'],
  ])('%s is counted as %s (never the subject)', (key, name) => {
    expect(limitNameOf(key)).toBe(name);
  });
});
