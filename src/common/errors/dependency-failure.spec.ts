import { isDependencyFailure } from './dependency-failure';

const error = (message: string, name = 'Error') => Object.assign(new Error(message), { name });

describe('isDependencyFailure: a Redis Cluster away', () => {
  it.each([
    [
      'a master away past the redirections',
      error('Too many Cluster redirections. Last error: Error: connect ECONNREFUSED'),
    ],
    ['the cluster refusing while it cannot serve every slot', error('CLUSTERDOWN The cluster is down', 'ReplyError')],
    ['a slot moving', error('TRYAGAIN Multiple keys request during rehashing of slot', 'ReplyError')],
    ['no slot map', error('Failed to refresh slots cache.', 'ClusterAllFailedError')],
    ['no node reachable', error('None of startup nodes is available')],
    ['the offline queue off', error("Cluster isn't ready and enableOfflineQueue options is false")],
  ])('%s: 503', (_, failure) => {
    expect(isDependencyFailure(failure)).toBe(true);
  });

  it.each([
    [
      'keys of one script in different slots (a bug)',
      error("CROSSSLOT Keys in request don't hash to the same slot", 'ReplyError'),
    ],
    [
      'a key of the wrong type (a bug)',
      error('WRONGTYPE Operation against a key holding the wrong kind of value', 'ReplyError'),
    ],
  ])('%s: not a dependency failure', (_, failure) => {
    expect(isDependencyFailure(failure)).toBe(false);
  });
});
