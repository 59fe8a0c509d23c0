import { Injectable } from '@nestjs/common';
import { Registration } from '../../common/registry/registration';

/**
 * Sessions as engagement reads them, as SQL its statements embed (one round trip each), from the
 * module that owns sessions. The owner registers an implementation at start: it depends on this
 * module, not the reverse.
 */
export interface TrackedSessions {
  /** SQL: whether the session (an expression) of the organization (an expression) is visible. */
  isVisibleSql(organization: string, session: string): string;
  /**
   * SQL selecting one row per visible session of the organization that came through one of
   * `linkIds` or that tracking tied to one (`sessionIds`), both SQL sets, with boolean columns
   * `qualified`, `booked` and `high_intent` (its person's).
   */
  funnelRowsSql(organization: string, linkIds: string, sessionIds: string): string;
}

/** Holds the registered TrackedSessions; one per application. */
@Injectable()
export class TrackedSessionsRegistry extends Registration<TrackedSessions> {
  constructor() {
    super('tracked sessions');
  }
}
