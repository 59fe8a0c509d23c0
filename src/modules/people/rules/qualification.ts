/** Qualification as sessions report it and people roll it up (docs/api.md §13.3). */
export const QUALIFICATION_STATUSES = ['qualified', 'unqualified'] as const;
