import { isTerminal, progressOf, settledStatus, type JobProgressFacts } from './job-status';

const facts = (overrides: Partial<JobProgressFacts>): JobProgressFacts => ({
  totalItems: 4,
  created: 0,
  failed: 0,
  cancelled: 0,
  rendersQueued: 0,
  rendersSettled: 0,
  ...overrides,
});

describe('job status rules (docs/api.md §3.2)', () => {
  it.each([
    ['every item created', facts({ created: 4 }), 'completed'],
    ['some created, some failed', facts({ created: 3, failed: 1 }), 'completed_with_errors'],
    ['none created', facts({ failed: 4 }), 'failed'],
    [
      'cancelled items (after a cancel), whatever else happened',
      facts({ created: 2, failed: 1, cancelled: 1 }),
      'cancelled',
    ],
    ['cancelled before anything ran', facts({ cancelled: 4 }), 'cancelled'],
    ['all created and every render settled', facts({ created: 4, rendersQueued: 3, rendersSettled: 3 }), 'completed'],
  ])('settles as expected when %s', (_label, given, expected) => {
    expect(settledStatus(given)).toBe(expected);
  });

  it.each([
    ['an item is still queued', facts({ created: 3 })],
    ['a render it queued is still pending', facts({ created: 4, rendersQueued: 2, rendersSettled: 1 })],
  ])('is not terminal while %s', (_label, given) => {
    expect(settledStatus(given)).toBeNull();
  });

  it('counts progress over items and renders, and is 1 once terminal', () => {
    expect(progressOf(facts({}), 'queued')).toBe(0);
    expect(progressOf(facts({ created: 2, rendersQueued: 2, rendersSettled: 1 }), 'processing')).toBe(0.5);
    expect(progressOf(facts({ created: 1, failed: 3 }), 'failed')).toBe(1);
  });

  it('knows the terminal statuses', () => {
    expect(['completed', 'completed_with_errors', 'cancelled', 'failed'].every(isTerminal)).toBe(true);
    expect(['queued', 'processing'].some(isTerminal)).toBe(false);
  });
});
