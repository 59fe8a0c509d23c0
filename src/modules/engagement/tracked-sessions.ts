import { definePort } from '../../common/wiring/port';

/** The funnel's sessions (docs/api.md §6.7): how many, and how many are qualified, booked, of a high-intent person. */
export interface FunnelSessions {
  total: number;
  qualified: number;
  booked: number;
  highIntent: number;
}

/**
 * Sessions as engagement reads them, from the module that owns sessions: it implements the port
 * (it depends on this module, not the reverse).
 */
export interface TrackedSessions {
  /** Those of these sessions of the organization that are visible. */
  visibleAmong(organizationId: string, sessionIds: string[]): Promise<Set<string>>;
  /** The visible sessions of the organization that came through one of `linkIds`, or that tracking tied to one (`sessionIds`). */
  funnel(organizationId: string, linkIds: string[], sessionIds: string[]): Promise<FunnelSessions>;
}

export const TRACKED_SESSIONS = definePort<TrackedSessions>('tracked sessions');
