/** What an account's rollup reads of each of its people. */
export interface PersonFacts {
  id: string;
  business: string | null;
  totalSessions: number;
  bookedSessions: number;
  totalTimeSpentSeconds: number;
  lastSeenAt: Date;
  overallIntent: string;
  qualificationStatus: string | null;
  summaryMarkdown: string | null;
}

export interface AccountRollup {
  accountDomain: string;
  companyName: string | null;
  totalUsers: number;
  totalSessions: number;
  bookedSessions: number;
  highIntentUsers: number;
  qualifiedUsers: number;
  totalTimeSpentSeconds: number;
  lastSeenAt: Date;
  summaryMarkdown: string | null;
}

/** Most recently seen first; id breaks ties so the result never depends on row order. */
const byRecency = (a: PersonFacts, b: PersonFacts) =>
  b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * An account from scratch (docs/api.md §2.5, §13.5) from its people (at least one).
 * companyName: the most frequent non-empty business, ties to the most recently seen person's.
 */
export function rollUpAccount(accountDomain: string, people: readonly PersonFacts[]): AccountRollup {
  const recentFirst = [...people].sort(byRecency);
  const businessCounts = new Map<string, number>();
  for (const person of recentFirst) {
    if (person.business && person.business.trim() !== '')
      businessCounts.set(person.business, (businessCounts.get(person.business) ?? 0) + 1);
  }
  let companyName: string | null = null;
  // Map iteration follows insertion, which is recency: the first business reaching the top count wins ties.
  for (const [business, count] of businessCounts) {
    if (companyName === null || count > (businessCounts.get(companyName) ?? 0)) companyName = business;
  }
  const sum = (pick: (p: PersonFacts) => number) => people.reduce((total, person) => total + pick(person), 0);
  return {
    accountDomain,
    companyName,
    totalUsers: people.length,
    totalSessions: sum((p) => p.totalSessions),
    bookedSessions: sum((p) => p.bookedSessions),
    highIntentUsers: people.filter((p) => p.overallIntent === 'high').length,
    qualifiedUsers: people.filter((p) => p.qualificationStatus === 'qualified').length,
    totalTimeSpentSeconds: sum((p) => p.totalTimeSpentSeconds),
    lastSeenAt: recentFirst[0].lastSeenAt,
    summaryMarkdown:
      recentFirst.find((p) => p.summaryMarkdown && p.summaryMarkdown.trim() !== '')?.summaryMarkdown ?? null,
  };
}
