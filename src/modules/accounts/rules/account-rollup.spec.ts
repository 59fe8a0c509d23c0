import { rollUpAccount, type PersonFacts } from './account-rollup';

/** docs/api.md §2.5, §13.5 and DECISIONS "Account fields left open". */
const at = (iso: string) => new Date(iso);

let nextId = 0;
function person(overrides: Partial<PersonFacts> = {}): PersonFacts {
  nextId += 1;
  return {
    id: `00000000-0000-7000-8000-${String(nextId).padStart(12, '0')}`,
    business: null,
    totalSessions: 1,
    bookedSessions: 0,
    totalTimeSpentSeconds: 0,
    lastSeenAt: at('2026-06-01T10:00:00.000Z'),
    overallIntent: 'low',
    qualificationStatus: null,
    summaryMarkdown: null,
    ...overrides,
  };
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

function forEveryOrder(people: PersonFacts[], check: (ordered: PersonFacts[]) => void): void {
  for (const ordered of permutations(people)) check(ordered);
}

const day = (n: number) => at(`2026-06-${String(n).padStart(2, '0')}T10:00:00.000Z`);

describe('rollUpAccount', () => {
  it('names the company after the most frequent business, even when the latest person has another', () => {
    const people = [
      person({ business: 'Acme', lastSeenAt: day(1) }),
      person({ business: 'Acme', lastSeenAt: day(2) }),
      person({ business: 'Acme Inc', lastSeenAt: day(9) }),
    ];
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered).companyName).toBe('Acme'));
  });

  it('breaks a companyName tie with the business of the most recently seen person', () => {
    const people = [person({ business: 'Acme', lastSeenAt: day(5) }), person({ business: 'Beta', lastSeenAt: day(6) })];
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered).companyName).toBe('Beta'));

    const twoEach = [
      person({ business: 'Beta', lastSeenAt: day(1) }),
      person({ business: 'Acme', lastSeenAt: day(2) }),
      person({ business: 'Beta', lastSeenAt: day(3) }),
      person({ business: 'Acme', lastSeenAt: day(8) }),
    ];
    forEveryOrder(twoEach, (ordered) => expect(rollUpAccount('acme.com', ordered).companyName).toBe('Acme'));
  });

  it('lets a tie go to the most recently seen of the tied businesses, not to a less frequent one', () => {
    const people = [
      person({ business: 'Acme', lastSeenAt: day(1) }),
      person({ business: 'Acme', lastSeenAt: day(4) }),
      person({ business: 'Beta', lastSeenAt: day(2) }),
      person({ business: 'Beta', lastSeenAt: day(3) }),
      person({ business: 'Gamma', lastSeenAt: day(9) }),
    ];
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered).companyName).toBe('Acme'));
  });

  it('ignores empty businesses and is null when there is none', () => {
    const people = [
      person({ business: 'Acme', lastSeenAt: day(1) }),
      person({ business: '', lastSeenAt: day(7) }),
      person({ business: '  ', lastSeenAt: day(8) }),
      person({ business: '  ', lastSeenAt: day(9) }),
    ];
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered).companyName).toBe('Acme'));
    expect(rollUpAccount('acme.com', [person({ business: '' }), person({ business: null })]).companyName).toBeNull();
  });

  it("sums the people's totals and counts users", () => {
    const people = [
      person({ totalSessions: 3, bookedSessions: 1, totalTimeSpentSeconds: 600 }),
      person({ totalSessions: 2, bookedSessions: 0, totalTimeSpentSeconds: 45 }),
      person({ totalSessions: 5, bookedSessions: 2, totalTimeSpentSeconds: 1200 }),
    ];
    const account = rollUpAccount('acme.com', people);
    expect(account.accountDomain).toBe('acme.com');
    expect(account.totalUsers).toBe(3);
    expect(account.totalSessions).toBe(10);
    expect(account.bookedSessions).toBe(3);
    expect(account.totalTimeSpentSeconds).toBe(1845);
  });

  it('counts high-intent users (overallIntent high only) and qualified users', () => {
    const people = [
      person({ overallIntent: 'high', qualificationStatus: 'qualified' }),
      person({ overallIntent: 'high', qualificationStatus: 'unqualified' }),
      person({ overallIntent: 'medium', qualificationStatus: 'qualified' }),
      person({ overallIntent: 'low', qualificationStatus: null }),
      person({ overallIntent: 'medium', qualificationStatus: 'qualified' }),
    ];
    const account = rollUpAccount('acme.com', people);
    expect(account.highIntentUsers).toBe(2);
    expect(account.qualifiedUsers).toBe(3);
  });

  it('takes lastSeenAt from the most recently seen person', () => {
    const people = [
      person({ lastSeenAt: day(3) }),
      person({ lastSeenAt: at('2026-06-20T23:59:59.999Z') }),
      person({ lastSeenAt: day(11) }),
    ];
    forEveryOrder(people, (ordered) =>
      expect(rollUpAccount('acme.com', ordered).lastSeenAt).toEqual(at('2026-06-20T23:59:59.999Z')),
    );
  });

  it('takes the summary of the most recently seen person that has one', () => {
    const people = [
      person({ lastSeenAt: day(1), summaryMarkdown: 'oldest' }),
      person({ lastSeenAt: day(5), summaryMarkdown: 'middle' }),
      person({ lastSeenAt: day(9), summaryMarkdown: null }),
      person({ lastSeenAt: day(10), summaryMarkdown: ' ' }),
    ];
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered).summaryMarkdown).toBe('middle'));
    expect(rollUpAccount('acme.com', [person(), person()]).summaryMarkdown).toBeNull();
  });

  it('does not depend on input order when people were last seen at the same instant', () => {
    const people = [
      person({ lastSeenAt: day(4), business: 'Acme', summaryMarkdown: 'a' }),
      person({ lastSeenAt: day(4), business: 'Beta', summaryMarkdown: 'b' }),
      person({ lastSeenAt: day(4), business: 'Gamma', summaryMarkdown: 'c' }),
    ];
    const reference = rollUpAccount('acme.com', people);
    forEveryOrder(people, (ordered) => expect(rollUpAccount('acme.com', ordered)).toEqual(reference));
  });
});
