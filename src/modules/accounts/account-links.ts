import { definePort } from '../../common/wiring/port';

/**
 * What an account's Custom Links add up to (docs/api.md §2.5 `engagement`): the links whose account
 * domain is the account's, counted from their rollups, which count human, external events only.
 */
export interface AccountLinkFigures {
  links: number;
  /** Links at stage opened or later. */
  opened: number;
  /** Links at stage engaged. */
  engaged: number;
  leadSubmitted: number;
  meetingBooked: number;
  /** Sums of the links' uniqueVisitorCount and sessionCount. */
  uniqueVisitors: number;
  sessions: number;
  /** The latest lastActivityAt of the links. */
  lastActivityAt: Date | null;
}

/**
 * Custom Links by account domain, from the module that owns them: it implements the port (it
 * depends on this module for the account domain's rule, not the reverse).
 */
export interface AccountLinks {
  /** The figures of the links of each of these account domains, in one read; a domain without links is absent. */
  figuresOf(organizationId: string, domains: string[]): Promise<Map<string, AccountLinkFigures>>;
}

export const ACCOUNT_LINKS = definePort<AccountLinks>('account links');
