import { definePort } from '../../common/wiring/port';

/**
 * Sessions as engagement reads them, from the module that owns sessions: it implements the port
 * (it depends on this module, not the reverse).
 */
export interface TrackedSessions {
  /** Those of these sessions of the organization that are visible. */
  visibleAmong(organizationId: string, sessionIds: string[]): Promise<Set<string>>;
}

export const TRACKED_SESSIONS = definePort<TrackedSessions>('tracked sessions');
