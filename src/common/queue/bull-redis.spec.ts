import type { RedisTarget } from '../../config/environment';
import { bullPrefix } from './bull-redis';

const single: RedisTarget = { mode: 'single', url: 'redis://127.0.0.1:6379/0' };
const cluster: RedisTarget = {
  mode: 'cluster',
  nodes: [{ host: '127.0.0.1', port: 7000 }],
  username: null,
  password: null,
  tls: false,
};

describe('bullPrefix', () => {
  it('keeps the prefix on one Redis', () => {
    expect(bullPrefix('bull', single)).toBe('bull');
  });

  it('makes it a hash tag on a cluster, so that every key of a queue lands in one slot', () => {
    expect(bullPrefix('bull', cluster)).toBe('{bull}');
    expect(bullPrefix('bull-run-1', cluster)).toBe('{bull-run-1}');
  });

  it('leaves a prefix that already holds a hash tag as it is', () => {
    expect(bullPrefix('{engagement}', cluster)).toBe('{engagement}');
    expect(bullPrefix('app:{queues}', cluster)).toBe('app:{queues}');
    // An empty tag hashes the whole key: not a tag.
    expect(bullPrefix('app{}', cluster)).toBe('{app{}}');
  });
});
